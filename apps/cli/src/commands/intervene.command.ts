import type { InterventionInput } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';

export interface InterventionFlags {
  addQuestion?: string;
  excludeDomain?: string;
  excludeSource?: string;
  narrowScope?: string;
}

/** The one intervention the flags ask for; the contract's own validation judges its content. */
export function interventionFromFlags(flags: InterventionFlags): InterventionInput {
  const given = (['addQuestion', 'excludeDomain', 'excludeSource', 'narrowScope'] as const).filter((n) => flags[n] !== undefined);
  if (given.length !== 1) {
    throw new CliUsageError('intervene takes exactly one of --add-question, --exclude-domain, --exclude-source, --narrow-scope');
  }
  const flag = given[0]!;
  const value = flags[flag]!;
  switch (flag) {
    case 'addQuestion':
      return { type: 'add_question', question: value };
    case 'excludeDomain':
      return { type: 'exclude_domain', domain: value };
    case 'excludeSource':
      return { type: 'exclude_source', sourceId: value };
    case 'narrowScope':
      return { type: 'narrow_scope', scope: value };
  }
}

export const interveneCommand = defineCommand<InterventionFlags>({
  name: 'intervene',
  description: 'Steer a run that is still researching; applied by `moderate` at the next research-loop boundary',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [
    { flags: '--add-question <text>', description: 'research this question too' },
    { flags: '--exclude-domain <domain>', description: 'drop the evidence of this domain and block it' },
    { flags: '--exclude-source <id>', description: 'drop one source (an id from report.json or the API)' },
    { flags: '--narrow-scope <text>', description: 'narrow what the research covers' },
  ],
  async run({ args, opts, out, client }) {
    const runId = runIdArg(args[0] as string);
    const queued = await (await client()).intervene(runId, interventionFromFlags(opts));
    out.line(
      `Queued ${queued.input.type.replaceAll('_', ' ')} (${queued.id}) on run ${runId}: applied at the next research-loop boundary.`,
    );
  },
});

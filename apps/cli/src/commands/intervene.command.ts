import type { InterventionInput } from '@dossier/contracts';
import { RunCommands } from '@dossier/workflow';
import { openContext, type CliContext } from '../cli-context';
import { CliUsageError } from '../cli-error';
import { Output } from '../output';
import { runIdArg } from './inspect.commands';

export interface InterventionFlags {
  'add-question'?: string;
  'exclude-domain'?: string;
  'exclude-source'?: string;
  'narrow-scope'?: string;
}

/** The one intervention the flags ask for; the contract's own validation (RunCommands) judges its content. */
export function interventionFromFlags(flags: InterventionFlags): InterventionInput {
  const names = ['add-question', 'exclude-domain', 'exclude-source', 'narrow-scope'] as const;
  const given = names.map((n) => [n, flags[n]] as const).filter(([, v]) => v !== undefined);
  if (given.length !== 1)
    throw new CliUsageError('intervene takes exactly one of --add-question, --exclude-domain, --exclude-source, --narrow-scope');
  const [flag, value] = given[0] as readonly [keyof InterventionFlags, string];
  switch (flag) {
    case 'add-question':
      return { type: 'add_question', question: value };
    case 'exclude-domain':
      return { type: 'exclude_domain', domain: value };
    case 'exclude-source':
      return { type: 'exclude_source', sourceId: value };
    case 'narrow-scope':
      return { type: 'narrow_scope', scope: value };
  }
}

/** Queues an intervention on a run that is still researching; `moderate` applies it at the next loop boundary. */
export async function intervene(ctx: CliContext, out: Output, id: string | undefined, input: InterventionInput): Promise<void> {
  const runId = runIdArg(id);
  const queued = await ctx.app.get(RunCommands).intervene(ctx.tenantId, runId, input, 'cli');
  out.line(`Queued ${queued.input.type.replaceAll('_', ' ')} (${queued.id}) on run ${runId}: applied at the next research-loop boundary.`);
}

/** `dossier intervene RUN --…`: its own client context (no workers), so it can run beside a `research`. */
export async function interveneCommand(id: string | undefined, flags: InterventionFlags): Promise<number> {
  const input = interventionFromFlags(flags);
  const ctx = await openContext(false);
  try {
    await intervene(ctx, new Output(), id, input);
    return 0;
  } finally {
    await ctx.close();
  }
}

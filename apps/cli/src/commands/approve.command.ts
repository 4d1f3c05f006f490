import { GateName } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';

export const approveCommand = defineCommand<{ reject?: boolean; feedback?: string }>({
  name: 'approve',
  description: 'Decide an open gate of a run: approve it, or reject it with feedback for the node that redoes the work',
  arguments: [
    { name: 'run', description: 'the run id', required: true },
    { name: 'gate', description: 'plan, outline or publish', required: true },
  ],
  options: [
    { flags: '--reject', description: 'reject instead of approve (needs --feedback)' },
    { flags: '--feedback <text>', description: 'what to change' },
  ],
  help: 'Example:\n  dossier approve RUN plan --reject --feedback "Add a regulator\'s perspective"',
  async run({ args, opts, out, client }) {
    const runId = runIdArg(args[0] as string);
    const gate = GateName.safeParse(args[1]);
    if (!gate.success) throw new CliUsageError(`"${String(args[1] ?? '')}" is not a gate: use plan, outline or publish`);
    if (opts.reject && !opts.feedback?.trim()) throw new CliUsageError('--reject needs --feedback "what to change"');
    await (
      await client()
    ).decide(runId, gate.data, opts.reject ? { decision: 'reject', feedback: opts.feedback! } : { decision: 'approve' });
    out.line(`${opts.reject ? 'Rejected' : 'Approved'} gate ${gate.data} of run ${runId}.`);
  },
});

import { defineCommand } from '../framework/command-spec';
import type { ReportFormat } from '@dossier/contracts';
import { oneOf, runIdArg } from '../framework/option-parsers';
import { FORMAT_FLAG, OUT_FLAG } from '../research/research-flags';
import { followToReport } from '../research/follow-run';

export const resumeCommand = defineCommand<{ out: string; format: ReportFormat[]; approve?: 'auto' | 'prompt' }>({
  name: 'resume',
  description:
    'Continue a run that failed, was cancelled, or whose process died; completed steps are not run (or paid for) again. ' +
    'Follows it to the end and writes the reports',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [
    OUT_FLAG,
    FORMAT_FLAG,
    {
      flags: '--approve <mode>',
      description:
        'a gate that opens: prompt asks at the terminal, auto approves it; without it, the command that decides it from another shell is printed',
      parse: oneOf('approve', ['auto', 'prompt']),
    },
  ],
  workers: true,
  async run({ args, opts, out, client, invocation }) {
    const c = await client();
    const run = await c.resume(runIdArg(args[0] as string));
    out.line(`Resuming run ${run.id}: ${run.question}`);
    await followToReport(c, out, run, { approve: opts.approve ?? 'wait', dir: opts.out, formats: opts.format, how: invocation });
  },
});

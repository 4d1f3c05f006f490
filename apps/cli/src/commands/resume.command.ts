import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';
import type { ReportFormat } from '@dossier/contracts';
import { FORMAT_FLAG, OUT_FLAG } from '../research/research-flags';
import { followToReport } from '../research/follow-run';

export const resumeCommand = defineCommand<{ out: string; format: ReportFormat[] }>({
  name: 'resume',
  description:
    'Continue a run that failed, was cancelled, or whose process died; completed steps are not run (or paid for) again. ' +
    'Follows it to the end and writes the reports',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [OUT_FLAG, FORMAT_FLAG],
  workers: true,
  async run({ args, opts, out, client, invocation }) {
    const c = await client();
    const run = await c.resume(runIdArg(args[0] as string));
    out.line(`Resuming run ${run.id}: ${run.question}`);
    await followToReport(c, out, run, { approve: 'wait', dir: opts.out, formats: opts.format, how: invocation });
  },
});

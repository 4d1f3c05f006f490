import type { ReportFormat } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';
import { FORMAT_FLAG, OUT_FLAG } from '../research/research-flags';
import { followToReport } from '../research/follow-run';

export const replayCommand = defineCommand<{ from?: string; out: string; format: ReportFormat[] }>({
  name: 'replay',
  description:
    "Run a finished run again from its recording: every model answer, embedding, search result and page comes from what it consumed, with no network at all (a call the recording cannot answer fails the run, naming it). With --from NODE, steps from that node's first step on call live and are recorded anew. Follows the new run and writes its reports",
  arguments: [{ name: 'run', description: 'the id of the run to replay', required: true }],
  options: [
    {
      flags: '--from <node>',
      description: 'go live from this node on (e.g. draft after changing the writer, or outline)',
      parse: (value: string) => {
        if (!/^[a-z_]{1,40}$/.test(value)) throw new CliUsageError(`--from takes a node name such as draft or verify (got "${value}")`);
        return value;
      },
    },
    OUT_FLAG,
    FORMAT_FLAG,
  ],
  help: ['Examples:', '  dossier replay RUN', '  OPENAI_TEMPERATURE_WRITER=0 dossier replay RUN --from draft --out out-replay'].join('\n'),
  workers: true,
  async run({ args, opts, out, client, invocation }) {
    const c = await client();
    const run = await c.replay(runIdArg(args[0] as string), opts.from);
    out.line(`Run ${run.id} replays ${args[0] as string}${opts.from ? ` (live from ${opts.from})` : ''}: ${run.question}`);
    await followToReport(c, out, run, { approve: 'wait', dir: opts.out, formats: opts.format, how: invocation });
  },
});

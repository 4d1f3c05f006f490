import { writeFile } from 'node:fs/promises';
import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';

export const exportCommand = defineCommand<{ out?: string }>({
  name: 'export',
  description:
    'Write a finished run with its recording to one archive file (gzip JSON: question, options, reports and every external answer; no keys or secrets), for `dossier import` elsewhere',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [{ flags: '--out <file>', description: 'the archive file (default: run-RUN.dossier.gz)' }],
  help: ['Examples:', '  dossier export RUN --out lake.dossier.gz', '  dossier --api URL --key KEY export RUN'].join('\n'),
  async run({ args, opts, out, client }) {
    const runId = runIdArg(args[0] as string);
    const { archive, summary } = await (await client()).exportRun(runId);
    const file = opts.out ?? `run-${runId}.dossier.gz`;
    await writeFile(file, archive);
    out.line(
      `Wrote ${file} (${archive.length} bytes): run ${runId}, ${summary.calls} recorded calls, ${summary.answers} answers (${summary.recordingBytes} bytes of recording)`,
    );
  },
});

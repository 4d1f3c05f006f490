import { writeFile } from 'node:fs/promises';
import { BINARY_REPORT_FORMATS, ReportFormat } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import { oneOf, runIdArg } from '../framework/option-parsers';

export const reportCommand = defineCommand<{ format: ReportFormat; out?: string }>({
  name: 'report',
  description: "Print a finished run's report, or write it to a file (--format pdf needs --out or a pipe)",
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [
    {
      flags: '--format <format>',
      description: ReportFormat.options.join(', '),
      parse: oneOf('format', ReportFormat.options),
      default: 'md',
    },
    { flags: '--out <file>', description: 'write the report to this file instead of standard output' },
  ],
  help: ['Examples:', '  dossier report RUN --format pdf --out report.pdf', '  dossier report RUN --format json | jq .sections'].join('\n'),
  async run({ args, opts, out, client }) {
    const runId = runIdArg(args[0] as string);
    // Checked before the request: a terminal shown PDF bytes is unusable (and can be left in a bad state).
    if (!opts.out && BINARY_REPORT_FORMATS.includes(opts.format) && process.stdout.isTTY) {
      throw new CliUsageError(
        `report.${opts.format} is binary: pass --out FILE or pipe it (dossier report ${runId} --format ${opts.format} > report.${opts.format})`,
      );
    }
    const file = await (await client()).report(runId, opts.format);
    if (opts.out) {
      await writeFile(opts.out, file);
      out.line(`Wrote ${opts.out} (${file.length} bytes)`);
    } else {
      process.stdout.write(file);
    }
  },
});

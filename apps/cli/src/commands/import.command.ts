import { readFile } from 'node:fs/promises';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';

export const importCommand = defineCommand({
  name: 'import',
  description:
    'Add a run archive written by `dossier export` as a new, finished run of this tenant (reports and recording), ready to replay',
  arguments: [{ name: 'file', description: 'the archive file', required: true }],
  help: ['Examples:', '  dossier import lake.dossier.gz', '  dossier replay IMPORTED_RUN'].join('\n'),
  async run({ args, out, client }) {
    const file = args[0] as string;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      throw new CliUsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const run = await (await client()).importRun(bytes);
    out.line(`Imported run ${run.id} (${run.status}): ${run.question}`);
    // What the tenant's policy changed of the archive's options: the run is not what was exported, and a replay shows it.
    for (const c of run.clamped) out.line(`  ${c.option}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)} (this tenant's policy)`);
  },
});

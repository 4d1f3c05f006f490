import type { DossierClient, IngestSummary } from '@dossier/client';
import { defineCommand } from '../framework/command-spec';
import type { Output } from '../output';

/** Ingests files into a collection with progress, and prints what was stored and what was skipped (and why). */
export async function ingestInto(client: DossierClient, out: Output, paths: string[], collection: string): Promise<IngestSummary> {
  out.line(`Ingesting ${paths.join(', ')} into collection "${collection}"…`);
  const started = Date.now();
  const report = await client.ingest(paths, collection, (done, total) => out.progress(`  ${done}/${total} files`));
  out.done();
  const secs = (Date.now() - started) / 1000;
  out.line(
    `Ingested ${report.ingested} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.duplicates} duplicates, ` +
      `${report.failed.length} failed (${report.scanned} scanned in ${secs.toFixed(1)} s).`,
  );
  for (const f of report.failed) out.line(`  skipped ${f.path}: ${f.reason}`);
  return report;
}

export const ingestCommand = defineCommand<{ collection: string }>({
  name: 'ingest',
  description: 'Add files to a private collection: md, txt, html, pdf (folders are walked); bad files are skipped and listed',
  arguments: [{ name: 'paths', description: 'files or folders', required: true, variadic: true }],
  options: [{ flags: '--collection <name>', description: 'the collection (created on first use)', default: 'default' }],
  async run({ args, opts, out, client }) {
    const report = await ingestInto(await client(), out, args[0] as string[], opts.collection);
    // Nothing readable at all is a failure; some bad files among good ones are not.
    return report.failed.length > 0 && report.ingested + report.updated + report.unchanged + report.duplicates === 0 ? 1 : 0;
  },
});

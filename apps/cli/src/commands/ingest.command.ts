import { ingestPaths, type IngestReport } from '@dossier/sources';
import type { CliContext } from '../cli-context';
import type { Output } from '../output';

export async function ingest(ctx: CliContext, out: Output, paths: string[], collection: string): Promise<IngestReport> {
  out.line(`Ingesting ${paths.join(', ')} into collection "${collection}"…`);
  const started = Date.now();
  const report = await ingestPaths(ctx.prisma, {
    tenantId: ctx.tenantId,
    collection,
    paths,
    onProgress: ({ done, total }) => out.progress(`  ${done}/${total} files`),
  });
  out.done();
  const secs = (Date.now() - started) / 1000;
  out.line(
    `Ingested ${report.ingested} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.duplicates} duplicates, ${report.failed.length} failed (${report.scanned} scanned in ${secs.toFixed(1)} s).`,
  );
  for (const f of report.failed) out.line(`  skipped ${f.path}: ${f.reason}`);
  return report;
}

import { Injectable } from '@nestjs/common';
import { BINARY_REPORT_FORMATS, type ReportFormat } from '@dossier/contracts';
import { PrismaService, type Db } from '../prisma.service';

/** Rendered report files by format: text as-is, bytes (pdf) as a Buffer. */
export type ReportFiles = Partial<Record<ReportFormat, string | Buffer>>;

/**
 * A run's rendered report files (`report_artifacts`, one row per format). The column is text: text formats
 * are stored verbatim and binary ones base64 (decision 0028), so every format goes through one table, one
 * upsert and one tenant-scoped read.
 */
@Injectable()
export class ReportArtifactRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Writes (or rewrites, on a re-render) each file; one statement per format. */
  async save(tx: Db, tenantId: string, runId: string, files: ReportFiles): Promise<void> {
    for (const [format, file] of Object.entries(files) as [ReportFormat, string | Buffer][]) {
      const content = BINARY_REPORT_FORMATS.includes(format) ? Buffer.from(file).toString('base64') : file.toString();
      // INSERT … ON CONFLICT (run_id, format) DO UPDATE: Prisma sends an upsert with a non-empty `update` as one statement.
      await tx.reportArtifact.upsert({
        where: { runId_format: { runId, format } },
        create: { tenantId, runId, format, content },
        update: { content },
      });
    }
  }

  /** A file as the table holds it (binary formats base64), or null: what a run archive carries (decision 0030). */
  async stored(tenantId: string, runId: string, format: ReportFormat, db: Db = this.prisma): Promise<string | null> {
    return (await db.reportArtifact.findFirst({ where: { tenantId, runId, format }, select: { content: true } }))?.content ?? null;
  }

  /** Stores a file of an imported archive as it came (already in the table's encoding). */
  async insertStored(tx: Db, tenantId: string, runId: string, file: { format: string; content: string }): Promise<void> {
    await tx.reportArtifact.create({ data: { tenantId, runId, ...file } });
  }

  /** The file's bytes, or null when the run has none in this format (another tenant's run has none either). */
  async read(tenantId: string, runId: string, format: ReportFormat, db: Db = this.prisma): Promise<Buffer | null> {
    const row = await db.reportArtifact.findFirst({ where: { tenantId, runId, format }, select: { content: true } });
    if (!row) return null;
    return BINARY_REPORT_FORMATS.includes(format) ? Buffer.from(row.content, 'base64') : Buffer.from(row.content, 'utf8');
  }
}

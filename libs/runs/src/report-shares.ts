import { Injectable } from '@nestjs/common';
import { SHARE_EXPIRY_HOURS, type ReportFormat, type SharedReportView, type ShareView, type SourceTextView } from '@dossier/contracts';
import { PrismaService, ReportShareRepository, RunRepository, RunViews, runReadSnapshot, type ReportShareRow } from '@dossier/db';
import { RunNotFoundError, RunStateError, ValidationError } from '@dossier/errors';
import { AuditLog } from '@dossier/workflow';
import { RunQueries } from './run-queries';

const FULL_REF = /^(?:[0-9a-f]{64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The run a valid share link opens, as the gateway's share guard found it: nothing else is reachable through it. */
export interface SharedRun {
  shareId: string;
  tenantId: string;
  runId: string;
  expiresAt: Date;
}

export function shareView(row: ReportShareRow, now = new Date()): ShareView {
  return {
    id: row.id,
    runId: row.runId,
    prefix: `dsh_${row.prefix}_…`,
    state: row.revokedAt ? 'revoked' : row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active',
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedBy,
  };
}

/**
 * Read-only links to a finished run's report (docs/decisions/0051). Creating and revoking one is written in the run's
 * audit log (who, when, until when; never the token). What a link opens is answered here from the link's own
 * (tenant, run): the report's files, its figures, and the stored text of a source that run read — nothing chosen by
 * the link's holder can name another run or tenant.
 */
@Injectable()
export class ReportShares {
  constructor(
    private readonly prisma: PrismaService,
    private readonly shares: ReportShareRepository,
    private readonly runs: RunRepository,
    private readonly views: RunViews,
    private readonly queries: RunQueries,
    private readonly audit: AuditLog,
  ) {}

  /** A new link to a completed run's report; the token in the answer is its only copy. */
  async create(tenantId: string, runId: string, expiresInHours: number, actor: string): Promise<{ token: string; view: ShareView }> {
    if (!Number.isInteger(expiresInHours) || expiresInHours < SHARE_EXPIRY_HOURS.min || expiresInHours > SHARE_EXPIRY_HOURS.max) {
      throw new ValidationError(`A share link works for ${SHARE_EXPIRY_HOURS.min} to ${SHARE_EXPIRY_HOURS.max} hours`);
    }
    return this.prisma.$transaction(async (tx) => {
      const run = await this.runs.lock(tx, tenantId, runId);
      if (!run) throw new RunNotFoundError(`Run ${runId} not found`, { details: { runId } });
      // A report exists once the run completed; a link to a run still writing (or failed) would open nothing.
      if (run.status !== 'completed') {
        throw new RunStateError(`Run ${runId} is ${run.status}; only a completed run's report can be shared`, {
          runId,
          details: { status: run.status },
        });
      }
      const expiresAt = new Date(Date.now() + expiresInHours * 3_600_000);
      const { token, row } = await this.shares.create({ tenantId, runId, createdBy: actor, expiresAt }, tx);
      await this.audit.appendLocked(tx, tenantId, runId, 'report_shared', actor, {
        shareId: row.id,
        prefix: row.prefix,
        expiresAt: expiresAt.toISOString(),
      });
      return { token, view: shareView(row) };
    });
  }

  async list(tenantId: string, runId: string): Promise<ShareView[]> {
    await this.mustFind(tenantId, runId);
    const now = new Date();
    return (await this.shares.list(tenantId, runId)).map((r) => shareView(r, now));
  }

  /** Revokes a link of the run (idempotent: revoking a revoked link answers it as it is, and writes nothing more). */
  async revoke(tenantId: string, runId: string, shareId: string, actor: string): Promise<ShareView> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await this.runs.lock(tx, tenantId, runId))) throw new RunNotFoundError(`Run ${runId} not found`, { details: { runId } });
      const before = await this.shares.find(tenantId, runId, shareId, tx);
      if (!before) throw new RunNotFoundError(`Share ${shareId} of run ${runId} not found`, { details: { runId, shareId } });
      if (before.revokedAt) return shareView(before);
      const row = (await this.shares.revoke(tenantId, runId, shareId, actor, tx))!;
      await this.audit.appendLocked(tx, tenantId, runId, 'report_share_revoked', actor, { shareId, prefix: row.prefix });
      return shareView(row);
    });
  }

  /** What the link's holder is told about the report: its question, when it finished, its verification figures. */
  async summary(shared: SharedRun): Promise<SharedReportView> {
    const run = await this.mustFind(shared.tenantId, shared.runId);
    const view = await this.views.one(run);
    return {
      run: { id: run.id, question: run.question, completedAt: run.completedAt?.toISOString() ?? null },
      share: { expiresAt: shared.expiresAt.toISOString() },
      verification: view.progress?.verification ?? null,
    };
  }

  report(shared: SharedRun, format: ReportFormat): Promise<Buffer> {
    return this.queries.report(shared.tenantId, shared.runId, format);
  }

  /**
   * A source's stored text, only if the shared run read it (a source record or evidence of that run points at the
   * snapshot): a link cannot be used to read the tenant's other snapshots by guessing hashes.
   */
  async sourceText(shared: SharedRun, idOrHash: string): Promise<SourceTextView> {
    // The whole hash or id, not a prefix: "matches more than one source" would tell the tenant's other snapshots apart.
    if (!FULL_REF.test(idOrHash)) {
      throw new ValidationError('Give the source snapshot id or its whole content hash (report.json sources[].contentHash)');
    }
    const text = await this.queries.sourceText(shared.tenantId, idOrHash);
    if (!(await runReadSnapshot(this.prisma, shared.tenantId, shared.runId, text.id)))
      throw new RunNotFoundError(`No source ${idOrHash} in this report`, { details: { source: idOrHash } });
    return text;
  }

  private async mustFind(tenantId: string, runId: string) {
    const run = await this.runs.find(tenantId, runId);
    if (!run) throw new RunNotFoundError(`Run ${runId} not found`, { details: { runId } });
    return run;
  }
}

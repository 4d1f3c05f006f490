import { Injectable } from '@nestjs/common';
import { AuditRepository, lockRunRow, PrismaService, RunRepository, type Db } from '@dossier/db';
import { RunNotFoundError } from '@dossier/errors';
import { auditHash, GENESIS_PREV_HASH, verifyAuditChain, type AuditVerification } from './audit-chain';

/** The append-only, hash-chained audit log of a run (genesis row at creation). */
@Injectable()
export class AuditLog {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditRepository,
    private readonly runs: RunRepository,
  ) {}

  /**
   * Appends inside the caller's transaction, under the run lock: the caller normally holds it already
   * (RunRepository.lock); it is taken here again (a no-op then) so that reading the last row and inserting
   * the next can never race, whoever calls.
   */
  async appendLocked(tx: Db, tenantId: string, runId: string, kind: string, actor: string, payload: unknown): Promise<void> {
    await lockRunRow(tx, tenantId, runId);
    const last = await this.audit.last(tx, tenantId, runId);
    const row = {
      tenantId,
      runId,
      seq: last ? last.seq + 1 : 0,
      kind,
      actor,
      payload: JSON.stringify(payload ?? null),
      createdAt: new Date().toISOString(),
      prevHash: last?.hash ?? GENESIS_PREV_HASH,
    };
    await this.audit.insert(tx, { ...row, hash: auditHash(row) });
  }

  /** Appends in a transaction of its own, taking the run lock: safe from any number of concurrent writers. */
  async append(tenantId: string, runId: string, kind: string, actor: string, payload: unknown): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      if (!(await this.runs.lock(tx, tenantId, runId))) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
      await this.appendLocked(tx, tenantId, runId, kind, actor, payload);
    });
  }

  async verify(tenantId: string, runId: string): Promise<AuditVerification> {
    return verifyAuditChain(await this.audit.list(tenantId, runId));
  }
}

import { Injectable } from '@nestjs/common';
import type { GateName } from '@dossier/contracts';
import { insertOrFind } from '../insert-or-find';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type ApprovalRow = Prisma.ApprovalDecisionGetPayload<object>;

@Injectable()
export class ApprovalRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Opens the gate's revision, or returns it when it is open already (first opener wins; never a unique violation). */
  async open(
    tx: Db,
    data: { tenantId: string; runId: string; gate: GateName; revision: number; expiresAt: Date | null },
  ): Promise<ApprovalRow> {
    const { row } = await insertOrFind(
      `approval ${data.gate}#${data.revision} of run ${data.runId}`,
      () => tx.approvalDecision.createManyAndReturn({ data: [{ ...data, status: 'open' }], skipDuplicates: true }),
      () =>
        tx.approvalDecision.findUnique({ where: { runId_gate_revision: { runId: data.runId, gate: data.gate, revision: data.revision } } }),
    );
    return row;
  }

  findOpen(tx: Db, tenantId: string, runId: string, gate?: GateName): Promise<ApprovalRow | null> {
    return tx.approvalDecision.findFirst({
      where: { tenantId, runId, status: 'open', ...(gate ? { gate } : {}) },
      orderBy: { revision: 'desc' },
    });
  }

  decide(tx: Db, id: string, status: 'approved' | 'rejected' | 'expired', feedback: string | null, decidedBy: string): Promise<unknown> {
    return tx.approvalDecision.updateMany({ where: { id, status: 'open' }, data: { status, feedback, decidedBy, decidedAt: new Date() } });
  }

  /** The feedback of the latest rejection of a gate, which the node sent back to reads. */
  latestRejection(tenantId: string, runId: string, gate: GateName, db: Db = this.prisma): Promise<ApprovalRow | null> {
    return db.approvalDecision.findFirst({ where: { tenantId, runId, gate, status: 'rejected' }, orderBy: { revision: 'desc' } });
  }

  /** One approval by its id within a tenant, or null (another tenant's is null too). */
  find(tenantId: string, id: string, db: Db = this.prisma): Promise<ApprovalRow | null> {
    return db.approvalDecision.findFirst({ where: { id, tenantId } });
  }

  list(tenantId: string, runId: string, db: Db = this.prisma): Promise<ApprovalRow[]> {
    return db.approvalDecision.findMany({ where: { tenantId, runId }, orderBy: { openedAt: 'asc' } });
  }

  /** Conductor sweep (all tenants): open gates past their expiry. */
  expired(now: Date, db: Db = this.prisma): Promise<ApprovalRow[]> {
    return db.approvalDecision.findMany({ where: { status: 'open', expiresAt: { lt: now } }, take: 100 });
  }
}

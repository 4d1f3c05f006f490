import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type InterventionRow = Prisma.RunInterventionGetPayload<object>;

/** Interventions of a run (queued by a person, applied by `moderate`). Every query filters by tenant and run. */
@Injectable()
export class InterventionRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: Db, data: { tenantId: string; runId: string; type: string; payload: Prisma.InputJsonValue; createdBy: string }): Promise<InterventionRow> {
    return tx.runIntervention.create({ data: { ...data, status: 'pending' } });
  }

  /** In the order they were queued (ties by id, so a replayed read gives the same order). */
  list(tenantId: string, runId: string, db: Db = this.prisma, status?: string[]): Promise<InterventionRow[]> {
    return db.runIntervention.findMany({
      where: { tenantId, runId, ...(status ? { status: { in: status } } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  pending(tenantId: string, runId: string, db: Db = this.prisma): Promise<InterventionRow[]> {
    return this.list(tenantId, runId, db, ['pending']);
  }

  /** Applied ones, in the order they were applied: what later planning, search and writing must honour. */
  applied(tenantId: string, runId: string, db: Db = this.prisma): Promise<InterventionRow[]> {
    return db.runIntervention.findMany({
      where: { tenantId, runId, status: 'applied' },
      orderBy: [{ appliedIteration: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** Marks pending ones applied (or discarded); returns how many were still pending. */
  async settle(tx: Db, tenantId: string, runId: string, ids: string[], status: 'applied' | 'discarded', iteration: number | null, at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const done = await tx.runIntervention.updateMany({
      where: { tenantId, runId, id: { in: ids }, status: 'pending' },
      data: { status, appliedIteration: iteration, appliedAt: at },
    });
    return done.count;
  }
}

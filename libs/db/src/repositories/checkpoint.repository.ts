import { Injectable } from '@nestjs/common';
import type { Db, Prisma } from '../prisma.service';

@Injectable()
export class CheckpointRepository {
  insert(tx: Db, data: { tenantId: string; runId: string; stepKey: string; state: Prisma.InputJsonValue }): Promise<unknown> {
    return tx.workflowCheckpoint.create({ data });
  }

  /** The trace carriers recorded in the checkpoints of these steps (a join links to its shards' spans). */
  async traceCarriers(tx: Db, tenantId: string, stepKeys: readonly string[]): Promise<Record<string, string>[]> {
    if (stepKeys.length === 0) return [];
    const rows = await tx.workflowCheckpoint.findMany({
      where: { tenantId, stepKey: { in: [...stepKeys] } },
      select: { state: true },
      orderBy: { id: 'asc' },
    });
    const carriers: Record<string, string>[] = [];
    for (const row of rows) {
      const trace = (row.state as { trace?: unknown } | null)?.trace;
      if (trace && typeof trace === 'object' && Object.values(trace).every((v) => typeof v === 'string'))
        carriers.push(trace as Record<string, string>);
    }
    return carriers;
  }
}

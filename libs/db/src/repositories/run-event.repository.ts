import { Injectable } from '@nestjs/common';
import type { RunEventData } from '@dossier/contracts';
import { PrismaService, type Db, type Prisma } from '../prisma.service';
import { lockRunRow } from './run-lock';

export type RunEventRow = Prisma.RunEventGetPayload<object>;

@Injectable()
export class RunEventRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Appends events with the next sequence numbers, in the caller's transaction. Reading the last number and
   * inserting after it is atomic only under the run lock: taken here (a no-op when the caller holds it, as the
   * runner and the run commands do), so no appender can forget it and two never write the same seq.
   */
  async append(tx: Db, tenantId: string, runId: string, events: RunEventData[]): Promise<void> {
    if (events.length === 0) return;
    await lockRunRow(tx, tenantId, runId);
    const last = await tx.runEvent.findFirst({ where: { runId, tenantId }, orderBy: { seq: 'desc' }, select: { seq: true } });
    const start = (last?.seq ?? 0) + 1;
    await tx.runEvent.createMany({
      data: events.map((data, i) => ({ tenantId, runId, seq: start + i, type: data.type, data: data as Prisma.InputJsonValue })),
    });
  }

  list(tenantId: string, runId: string, afterSeq = 0, limit = 1000, db: Db = this.prisma): Promise<RunEventRow[]> {
    return db.runEvent.findMany({ where: { tenantId, runId, seq: { gt: afterSeq } }, orderBy: { seq: 'asc' }, take: limit });
  }
}

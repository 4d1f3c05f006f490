import { Injectable } from '@nestjs/common';
import type { RunEventData } from '@dossier/contracts';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type RunEventRow = Prisma.RunEventGetPayload<object>;

/** The channel a committed append notifies, with payload "<runId> <last seq>" (the gateway's live event streams listen). */
export const RUN_EVENTS_CHANNEL = 'dossier_run_events';

@Injectable()
export class RunEventRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Appends events with the next sequence numbers, in the caller's transaction, in one statement: the UPDATE of
   * the run's counter (research_runs.event_seq) locks the run row, so concurrent appenders serialize there and
   * never write the same seq, and it returns the numbers without reading the last event (docs/decisions/0026).
   * The NOTIFY is delivered when the transaction commits, never before, and not at all if it rolls back.
   */
  async append(tx: Db, tenantId: string, runId: string, events: RunEventData[]): Promise<void> {
    if (events.length === 0) return;
    // executeRaw: pg_notify returns void, which a query's result mapping cannot read.
    await tx.$executeRaw`
      WITH counter AS (
        UPDATE research_runs SET event_seq = event_seq + ${events.length}
        WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid
        RETURNING event_seq - ${events.length} AS base
      ), appended AS (
        INSERT INTO run_events (tenant_id, run_id, seq, type, data)
        SELECT ${tenantId}::uuid, ${runId}::uuid, counter.base + e.ord, e.value->>'type', e.value
        FROM counter, jsonb_array_elements(${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS e(value, ord)
        RETURNING seq
      )
      SELECT pg_notify(${RUN_EVENTS_CHANNEL}, ${runId} || ' ' || max(seq)) FROM appended HAVING count(*) > 0`;
  }

  list(tenantId: string, runId: string, afterSeq = 0, limit = 1000, db: Db = this.prisma): Promise<RunEventRow[]> {
    return db.runEvent.findMany({ where: { tenantId, runId, seq: { gt: afterSeq } }, orderBy: { seq: 'asc' }, take: limit });
  }
}

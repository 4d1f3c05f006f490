import { Injectable } from '@nestjs/common';
import type { NodeName } from '@dossier/contracts';
import { Prisma, PrismaService, type Db } from '../prisma.service';

export type OutboxRowData = Prisma.OutboxGetPayload<object>;

/** The outbox row as OutboxRowData, for the conductor's raw sweeps (a constant: no input reaches it). */
const OUTBOX_COLUMNS = Prisma.raw(
  'o.id, o.tenant_id AS "tenantId", o.run_id AS "runId", o.step_key AS "stepKey", o.cause_key AS "causeKey", ' +
    'o.node, o.iteration, o.shard, o.status, o.payload, o.created_at AS "createdAt", o.sent_at AS "sentAt"',
);

@Injectable()
export class OutboxRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Inserts decided steps; a step key that exists already is skipped (the unique key makes joins fire once). */
  insert(tx: Db, rows: Prisma.OutboxCreateManyInput[]): Promise<OutboxRowData[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return tx.outbox.createManyAndReturn({ data: rows, skipDuplicates: true });
  }

  /** How many shards a fan-out was given: the router decided them, and they are recorded here. */
  countSteps(tx: Db, tenantId: string, runId: string, node: NodeName, iteration: number): Promise<number> {
    return tx.outbox.count({ where: { tenantId, runId, node, iteration } });
  }

  /** The highest iteration decided for each shard of a node (a shard loop's last decided turn). */
  async lastDecidedPerShard(tx: Db, tenantId: string, runId: string, node: NodeName): Promise<Map<number, number>> {
    const rows = await tx.outbox.groupBy({ by: ['shard'], where: { tenantId, runId, node }, _max: { iteration: true } });
    return new Map(rows.map((r) => [r.shard, r._max.iteration ?? 0]));
  }

  pendingByCause(tenantId: string, causeKey: string): Promise<OutboxRowData[]> {
    return this.prisma.outbox.findMany({ where: { tenantId, causeKey, status: 'pending' } });
  }

  markSent(ids: bigint[]): Promise<unknown> {
    return this.prisma.outbox.updateMany({ where: { id: { in: ids }, status: 'pending' }, data: { status: 'sent', sentAt: new Date() } });
  }

  /**
   * Conductor relay (all tenants): rows never enqueued, of running runs hosted by `host` (null: the deployment's
   * runs; a local process's id: its own, docs/decisions/0075), older than `before`.
   */
  relayable(before: Date, limit: number, host: string | null = null): Promise<OutboxRowData[]> {
    return this.prisma.$queryRaw<OutboxRowData[]>`
      SELECT ${OUTBOX_COLUMNS}
      FROM outbox o JOIN research_runs r ON r.id = o.run_id AND r.tenant_id = o.tenant_id
      WHERE o.status = 'pending' AND o.created_at < ${before} AND r.status = 'running'
        AND r.hosted_by IS NOT DISTINCT FROM ${host}::text
      ORDER BY o.id LIMIT ${limit}`;
  }

  /**
   * Conductor reconciliation (all tenants): steps that Postgres says must run (decided, not completed)
   * for running runs hosted by `host` (as `relayable`). Each must have a live job; the conductor checks Redis for each.
   */
  unfinished(limit: number, runId?: string, host: string | null = null): Promise<OutboxRowData[]> {
    return this.prisma.$queryRaw<OutboxRowData[]>`
      SELECT ${OUTBOX_COLUMNS}
      FROM outbox o
      JOIN research_runs r ON r.id = o.run_id AND r.tenant_id = o.tenant_id
      LEFT JOIN node_executions e ON e.step_key = o.step_key
      WHERE r.status = 'running' AND (e.status IS NULL OR e.status <> 'completed')
        AND r.hosted_by IS NOT DISTINCT FROM ${host}::text
        AND (${runId ?? null}::uuid IS NULL OR o.run_id = ${runId ?? null}::uuid)
      ORDER BY o.id LIMIT ${limit}`;
  }
}

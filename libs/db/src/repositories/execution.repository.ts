import { Injectable } from '@nestjs/common';
import type { NodeName, StepJob } from '@dossier/contracts';
import { PrismaService, type Db, type Prisma } from '../prisma.service';
import { RUN_EVENTS_CHANNEL } from './run-event.repository';

export type ExecutionRow = Prisma.NodeExecutionGetPayload<object>;

@Injectable()
export class ExecutionRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, stepKey: string, db: Db = this.prisma): Promise<ExecutionRow | null> {
    return db.nodeExecution.findFirst({ where: { stepKey, tenantId } });
  }

  /**
   * Starts an attempt of a step, in one statement (docs/decisions/0026): unless the step is completed, creates its
   * row or bumps its attempt count, and appends its `step_started` event with the next run_events.seq (the run's
   * counter, as RunEventRepository.append does, notifying on commit). Returns the attempt number; null when the
   * step is completed already (nothing is written). The run row is locked first, as every run transaction does
   * (one lock order: run, then execution); INSERT … ON CONFLICT DO UPDATE keeps racing deliveries from colliding
   * (docs/decisions/0012).
   */
  async start(db: Db, job: StepJob, stepKey: string): Promise<number | null> {
    const rows = await db.$queryRaw<{ attempts: number; notified: number }[]>`
      WITH run AS (
        SELECT id FROM research_runs WHERE id = ${job.runId}::uuid AND tenant_id = ${job.tenantId}::uuid FOR UPDATE
      ), attempt AS (
        INSERT INTO node_executions (step_key, tenant_id, run_id, node, iteration, shard, status, attempts, started_at)
        SELECT ${stepKey}, ${job.tenantId}::uuid, run.id, ${job.node}, ${job.iteration}, ${job.shard}, 'running', 1, now() FROM run
        ON CONFLICT (step_key) DO UPDATE
          SET status = 'running', attempts = node_executions.attempts + 1, started_at = now(), error = NULL
          WHERE node_executions.status <> 'completed'
        RETURNING attempts
      ), counter AS (
        UPDATE research_runs SET event_seq = event_seq + 1
        WHERE id = ${job.runId}::uuid AND tenant_id = ${job.tenantId}::uuid AND EXISTS (SELECT 1 FROM attempt)
        RETURNING event_seq AS seq
      ), appended AS (
        INSERT INTO run_events (tenant_id, run_id, seq, type, data)
        SELECT ${job.tenantId}::uuid, ${job.runId}::uuid, counter.seq, 'step_started',
          jsonb_build_object('type', 'step_started', 'node', ${job.node}::text, 'iteration', ${job.iteration}::int,
            'shard', ${job.shard}::int, 'attempt', attempt.attempts)
        FROM counter, attempt
        RETURNING seq
      ), notified AS (
        SELECT pg_notify(${RUN_EVENTS_CHANNEL}, ${job.runId} || ' ' || seq) FROM appended
      )
      SELECT attempts, (SELECT count(*)::int FROM notified) AS notified FROM attempt`;
    return rows[0]?.attempts ?? null;
  }

  /** Marks the step completed unless it already is. False means another delivery completed it first. */
  async complete(tx: Db, tenantId: string, stepKey: string, result: Prisma.InputJsonValue): Promise<boolean> {
    const { count } = await tx.nodeExecution.updateMany({
      where: { stepKey, tenantId, status: { not: 'completed' } },
      data: { status: 'completed', result, completedAt: new Date(), error: null },
    });
    return count === 1;
  }

  fail(tx: Db, tenantId: string, stepKey: string, error: string): Promise<unknown> {
    return tx.nodeExecution.updateMany({ where: { stepKey, tenantId, status: { not: 'completed' } }, data: { status: 'failed', error } });
  }

  /** Results of the completed shards of one fan-out, in shard order. */
  async completedShards(tx: Db, tenantId: string, runId: string, node: NodeName, iteration: number): Promise<ExecutionRow[]> {
    return tx.nodeExecution.findMany({
      where: { tenantId, runId, node, iteration, status: 'completed' },
      orderBy: { shard: 'asc' },
    });
  }

  /**
   * Rewrites the result of a completed single step after a person changed what it produced (an edited
   * outline at its gate): the router sizes later fan-outs from it. Only a completed shard-0 row changes.
   */
  async reviseResult(
    tx: Db,
    tenantId: string,
    runId: string,
    node: NodeName,
    iteration: number,
    result: Prisma.InputJsonValue,
  ): Promise<void> {
    await tx.nodeExecution.updateMany({ where: { tenantId, runId, node, iteration, shard: 0, status: 'completed' }, data: { result } });
  }

  /** Each shard's latest completed iteration of a node, with its result (a shard loop's last completed turn). */
  latestPerShard(
    tx: Db,
    tenantId: string,
    runId: string,
    node: NodeName,
  ): Promise<{ shard: number; iteration: number; result: unknown }[]> {
    return tx.$queryRaw`
      SELECT DISTINCT ON (shard) shard, iteration, result FROM node_executions
      WHERE run_id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid AND node = ${node} AND status = 'completed'
      ORDER BY shard, iteration DESC`;
  }

  /** The highest completed iteration of a node (any shard), or null if it never completed. */
  async latestIteration(tenantId: string, runId: string, node: NodeName): Promise<number | null> {
    const row = await this.prisma.nodeExecution.aggregate({
      where: { tenantId, runId, node, status: 'completed' },
      _max: { iteration: true },
    });
    return row._max.iteration;
  }

  /** The latest completed result of every node of a run (highest iteration, shard 0). */
  latestResults(tx: Db, tenantId: string, runId: string): Promise<{ node: string; iteration: number; result: unknown }[]> {
    return tx.$queryRaw`
      SELECT DISTINCT ON (node) node, iteration, result FROM node_executions
      WHERE run_id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid AND status = 'completed' AND shard = 0
      ORDER BY node, iteration DESC`;
  }
}

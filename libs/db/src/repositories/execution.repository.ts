import { Injectable } from '@nestjs/common';
import type { NodeName, StepJob } from '@dossier/contracts';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type ExecutionRow = Prisma.NodeExecutionGetPayload<object>;

@Injectable()
export class ExecutionRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, stepKey: string, db: Db = this.prisma): Promise<ExecutionRow | null> {
    return db.nodeExecution.findFirst({ where: { stepKey, tenantId } });
  }

  /**
   * Records an attempt: creates the row or bumps its attempt count. Returns the attempt number. One statement:
   * Prisma sends an upsert whose `update` is not empty as INSERT … ON CONFLICT (step_key) DO UPDATE, so two
   * deliveries of a step never collide (an empty `update` would make it a read-then-insert: docs/decisions/0012).
   */
  async markRunning(tx: Db, job: StepJob, stepKey: string): Promise<number> {
    const row = await tx.nodeExecution.upsert({
      where: { stepKey },
      create: {
        stepKey,
        tenantId: job.tenantId,
        runId: job.runId,
        node: job.node,
        iteration: job.iteration,
        shard: job.shard,
        status: 'running',
        attempts: 1,
        startedAt: new Date(),
      },
      update: { status: 'running', attempts: { increment: 1 }, startedAt: new Date(), error: null },
    });
    return row.attempts;
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

import { Injectable } from '@nestjs/common';
import { TERMINAL_RUN_STATUSES, type NodeName, type StepJob } from '@dossier/contracts';
import { Prisma, PrismaService, type Db } from '../prisma.service';
import { fixedStatement, queryRows } from '../sql/query-rows';
import { RUN_EVENTS_CHANNEL } from './run-event.repository';
import { STEP_RUN_COLUMNS, type StepRunRow } from './run.repository';

export type ExecutionRow = Prisma.NodeExecutionGetPayload<object>;

/**
 * The advisory-lock namespace of worker liveness (docs/decisions/0027): a process holds
 * `(hashtext(LIVENESS_NAMESPACE), hashtext(<id>))` for each of its BullMQ workers and for its lease owner id.
 */
export const LIVENESS_NAMESPACE = 'dossier.worker';

/** Who takes a step's lease, and for how long without renewing. */
export interface StepLease {
  owner: string;
  ms: number;
}

/** The run (what a step reads of it, read under its lock) and the attempt started: null when none did (see `start`). */
export interface StepStart {
  run: StepRunRow;
  attempt: number | null;
}

const TERMINAL: readonly string[] = [...TERMINAL_RUN_STATUSES];

/**
 * The step's start (`ExecutionRepository.start`), its text built once (docs/decisions/0140): $1 run id, $2 tenant id,
 * $3 step key, $4 node, $5 iteration, $6 shard, $7 lease owner, $8 lease ms, $9 the terminal run statuses, $10 the
 * liveness lock namespace, $11 the run events channel, $12 the run id as the event notice's text. Every parameter is cast where it is used, so its type is the
 * same wherever it appears.
 */
const START_STEP = fixedStatement(`
      WITH run AS (
        SELECT ${STEP_RUN_COLUMNS.text} FROM research_runs WHERE id = $1::uuid AND tenant_id = $2::uuid FOR UPDATE
      ), attempt AS (
        INSERT INTO node_executions
          (step_key, tenant_id, run_id, node, iteration, shard, status, attempts, started_at, lease_owner, lease_expires_at)
        SELECT $3::text, $2::uuid, run.id, $4::text, $5::int, $6::int, 'running', 1, now(),
          $7::text, now() + make_interval(secs => $8::int / 1000.0)
        FROM run WHERE run.status <> ALL($9::text[])
        ON CONFLICT (step_key) DO UPDATE
          SET status = 'running', attempts = node_executions.attempts + 1, started_at = now(), error = NULL,
            lease_owner = EXCLUDED.lease_owner, lease_expires_at = EXCLUDED.lease_expires_at
          WHERE node_executions.status <> 'completed' AND (
            node_executions.status <> 'running' OR node_executions.lease_owner IS NULL
            OR node_executions.lease_owner = EXCLUDED.lease_owner
            OR node_executions.lease_expires_at < now()
            OR NOT EXISTS (
              SELECT 1 FROM pg_locks l
              WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND l.classid = hashtext($10::text)::oid AND l.objid = hashtext(node_executions.lease_owner)::oid))
        RETURNING attempts
      ), counter AS (
        UPDATE research_runs SET event_seq = event_seq + 1
        WHERE id = $1::uuid AND tenant_id = $2::uuid AND EXISTS (SELECT 1 FROM attempt)
        RETURNING event_seq AS seq
      ), appended AS (
        INSERT INTO run_events (tenant_id, run_id, seq, type, data)
        SELECT $2::uuid, $1::uuid, counter.seq, 'step_started',
          jsonb_build_object('type', 'step_started', 'node', $4::text, 'iteration', $5::int,
            'shard', $6::int, 'attempt', attempt.attempts)
        FROM counter, attempt
        RETURNING seq
      ), notified AS (
        SELECT pg_notify($11::text, $12::text || ' ' || seq) FROM appended
      ), delivered AS (
        UPDATE outbox SET status = 'sent', sent_at = now()
        WHERE step_key = $3::text AND tenant_id = $2::uuid AND status = 'pending' AND EXISTS (SELECT 1 FROM attempt)
      )
      SELECT run.*, (SELECT attempts FROM attempt) AS "stepAttempt", (SELECT count(*)::int FROM notified) AS notified FROM run`);

@Injectable()
export class ExecutionRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, stepKey: string, db: Db = this.prisma): Promise<ExecutionRow | null> {
    return db.nodeExecution.findFirst({ where: { stepKey, tenantId } });
  }

  /**
   * Starts an attempt of a step and takes its lease, in one statement (docs/decisions/0026, 0070), and reads the run.
   * Under the run row lock (one lock order: run, then execution), unless the run has ended: creates the step's row,
   * or takes it over when it is not completed and no live owner holds it (its lease has no owner, is this process's,
   * has expired, or its owner's liveness lock is gone: the process died), bumping the attempt counter (the lease's
   * generation) and appending `step_started` with the run's next event seq, notified on commit. INSERT … ON CONFLICT
   * DO UPDATE keeps racing deliveries from colliding (docs/decisions/0012). A started step's outbox row is marked sent
   * here: its job was delivered, so the relay need not send it (docs/decisions/0071: the sender no longer marks rows after
   * its enqueue, a statement per step less).
   *
   * `attempt` is null when nothing started: the run has ended, the step is completed, or a live owner holds it
   * (`held` tells the last two apart, read after the statement). Null altogether when the run does not exist.
   */
  async start(db: Db, job: StepJob, stepKey: string, lease: StepLease): Promise<StepStart | null> {
    const rows = await queryRows<StepRunRow & { stepAttempt: number | null; notified: number }>(db, {
      fixed: START_STEP,
      // $1…$12 of START_STEP, in order.
      values: [
        job.runId,
        job.tenantId,
        stepKey,
        job.node,
        job.iteration,
        job.shard,
        lease.owner,
        lease.ms,
        TERMINAL,
        LIVENESS_NAMESPACE,
        RUN_EVENTS_CHANNEL,
        job.runId,
      ],
    });
    const row = rows[0];
    if (!row) return null;
    const { stepAttempt, notified: _notified, ...run } = row;
    return { run, attempt: stepAttempt };
  }

  /** Whether the step is completed (read fresh: a step that did not start is completed, or held by a live owner). */
  async isCompleted(tenantId: string, stepKey: string, db: Db = this.prisma): Promise<boolean> {
    const row = await db.nodeExecution.findFirst({ where: { stepKey, tenantId }, select: { status: true } });
    return row?.status === 'completed';
  }

  /**
   * Renews the leases of the steps `owner` runs, in one statement for all of them (the worker's heartbeat). A step
   * taken over meanwhile (its owner changed) or finished is left alone. Returns how many were renewed.
   */
  renewLeases(owner: string, stepKeys: readonly string[], leaseMs: number, db: Db = this.prisma): Promise<number> {
    if (stepKeys.length === 0) return Promise.resolve(0);
    return db.$executeRaw`
      UPDATE node_executions SET lease_expires_at = now() + make_interval(secs => ${leaseMs}::int / 1000.0)
      WHERE step_key = ANY(${[...stepKeys]}::text[]) AND lease_owner = ${owner} AND status = 'running'`;
  }

  /**
   * Marks the step completed if `attempt` is still its current attempt (the lease's generation) and it is not completed.
   * False means another delivery completed it first, or took it over: this attempt's outputs are discarded (fenced).
   */
  async complete(tx: Db, tenantId: string, stepKey: string, attempt: number, result: Prisma.InputJsonValue): Promise<boolean> {
    const { count } = await tx.nodeExecution.updateMany({
      where: { stepKey, tenantId, attempts: attempt, status: { not: 'completed' } },
      data: { status: 'completed', result, completedAt: new Date(), error: null },
    });
    return count === 1;
  }

  /** Records a failed attempt (which frees the step for its retry), if `attempt` is still the step's current one. */
  fail(tx: Db, tenantId: string, stepKey: string, attempt: number, error: string): Promise<unknown> {
    return tx.nodeExecution.updateMany({
      where: { stepKey, tenantId, attempts: attempt, status: { not: 'completed' } },
      data: { status: 'failed', error, leaseOwner: null, leaseExpiresAt: null },
    });
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

import { Injectable } from '@nestjs/common';
import type { NodeName, RunEventData, RunStatus } from '@dossier/contracts';
import { Prisma, type Db } from '../prisma.service';
import { queryRows } from '../sql/query-rows';
import type { OutboxRowData } from './outbox.repository';
import { RUN_EVENTS_CHANNEL } from './run-event.repository';
import { RUN_COLUMNS, type RunRow } from './run.repository';

/** The run, locked and read, and whether this attempt completed the step (docs/decisions/0071). */
export interface LockedCompletion {
  run: RunRow;
  completed: boolean;
}

/** What the router reads of a run in the deciding transaction, after the run lock (one statement). */
export interface StepStateRows {
  /** The latest completed result of every node (highest iteration, shard 0). */
  latest: { node: string; iteration: number; result: unknown }[];
  /** A fan-out's shards: how many were decided, and the completed ones in shard order (this step's included). */
  fanout?: { expected: number; done: { stepKey: string; result: unknown }[] };
  /** A shard loop's turns: shards decided at iteration 0, each shard's last decided turn and last completed one. */
  loop?: {
    expected: number;
    decided: { shard: number; iteration: number }[];
    latest: { shard: number; iteration: number; result: unknown }[];
  };
}

/** What a run's row changes to when it moves (the columns the transition writer sets; absent: unchanged). */
export interface RunPatch {
  currentNode?: string;
  stopReason?: string;
  awaitingGate?: string | null;
  status?: RunStatus;
  completedAt?: Date;
}

/** One decided step, as its outbox row records it. */
export interface OutboxStep {
  stepKey: string;
  node: string;
  iteration: number;
  shard: number;
  payload: Prisma.InputJsonValue;
}

export interface TransitionWrite {
  tenantId: string;
  runId: string;
  causeKey: string;
  steps: readonly OutboxStep[];
  patch: RunPatch;
  events: readonly RunEventData[];
  /** The completing step's checkpoint (absent for a move from outside a step: start, gate). */
  checkpoint?: { stepKey: string; state: Prisma.InputJsonValue };
}

/** Outbox columns under their OutboxRowData names (a constant: no input reaches it). */
const OUTBOX_RETURNING = Prisma.raw(
  'id, tenant_id AS "tenantId", run_id AS "runId", step_key AS "stepKey", cause_key AS "causeKey", node, iteration, shard, ' +
    'status, payload, created_at AS "createdAt", sent_at AS "sentAt"',
);

/**
 * The statements of a step's completing transaction, each doing what several did before (docs/decisions/0071): lock the
 * run and complete the step (one), read what the router needs (one), write the decision (one). Raw SQL: each is a few
 * CTEs that Prisma's query builder cannot express, and one round trip each.
 */
@Injectable()
export class StepCommitRepository {
  /**
   * Locks the run row (for the rest of the transaction) and completes the step if `attempt` is still its current attempt
   * (the lease's generation) and it is not completed (fenced: docs/decisions/0070). Lock order as everywhere: the run,
   * then the execution — the execution's key comes out of the locked run, so the row is not touched before the lock is
   * held. Null when the run does not exist.
   *
   * The state is NOT read here: a statement's snapshot is taken when it starts, before it waits for the run lock, so a
   * read in this statement could miss a shard that committed while it waited (the join would never fire). `readState`
   * is the next statement, with a snapshot taken under the lock.
   */
  async lockAndComplete(
    tx: Db,
    tenantId: string,
    runId: string,
    stepKey: string,
    attempt: number,
    result: unknown,
  ): Promise<LockedCompletion | null> {
    const rows = await queryRows<RunRow & { completedNow: number }>(
      tx,
      Prisma.sql`
      WITH run AS MATERIALIZED (
        SELECT ${RUN_COLUMNS} FROM research_runs WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE
      ), done AS (
        UPDATE node_executions SET status = 'completed', result = ${JSON.stringify(result)}::jsonb, completed_at = now(), error = NULL
        WHERE step_key = (SELECT ${stepKey}::text FROM run) AND tenant_id = ${tenantId}::uuid
          AND attempts = ${attempt}::int AND status <> 'completed'
        RETURNING 1
      )
      SELECT run.*, (SELECT count(*)::int FROM done) AS "completedNow" FROM run`,
    );
    const row = rows[0];
    if (!row) return null;
    const { completedNow, ...run } = row;
    return { run, completed: completedNow === 1 };
  }

  /**
   * What the router needs, in one statement run under the run lock: the latest results, and for a fan-out's shard or a
   * shard loop's turn, the counts and results of its siblings.
   */
  async readState(
    tx: Db,
    tenantId: string,
    runId: string,
    step: { node: NodeName; iteration: number; kind: 'single' | 'fanout' | 'loop' },
  ): Promise<StepStateRows> {
    const latest = Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('node', node, 'iteration', iteration, 'result', result)), '[]'::jsonb)
      FROM (SELECT DISTINCT ON (node) node, iteration, result FROM node_executions
        WHERE run_id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid AND status = 'completed' AND shard = 0
        ORDER BY node, iteration DESC) l)`;
    if (step.kind === 'single') {
      const rows = await queryRows<{ latest: StepStateRows['latest'] }>(tx, Prisma.sql`SELECT ${latest} AS latest`);
      return { latest: rows[0]!.latest };
    }
    if (step.kind === 'fanout') {
      const rows = await queryRows<{ latest: StepStateRows['latest']; expected: number; done: { stepKey: string; result: unknown }[] }>(
        tx,
        Prisma.sql`
        SELECT ${latest} AS latest,
          (SELECT count(*)::int FROM outbox
            WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid AND node = ${step.node} AND iteration = ${step.iteration}::int) AS expected,
          (SELECT coalesce(jsonb_agg(jsonb_build_object('stepKey', step_key, 'result', result) ORDER BY shard), '[]'::jsonb)
            FROM node_executions
            WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid AND node = ${step.node} AND iteration = ${step.iteration}::int
              AND status = 'completed') AS done`,
      );
      const row = rows[0]!;
      return { latest: row.latest, fanout: { expected: row.expected, done: row.done } };
    }
    const rows = await queryRows<{
      latest: StepStateRows['latest'];
      expected: number;
      decided: { shard: number; iteration: number }[];
      perShard: { shard: number; iteration: number; result: unknown }[];
    }>(
      tx,
      Prisma.sql`
      SELECT ${latest} AS latest,
        (SELECT count(*)::int FROM outbox
          WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid AND node = ${step.node} AND iteration = 0) AS expected,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('shard', shard, 'iteration', last)), '[]'::jsonb)
          FROM (SELECT shard, max(iteration) AS last FROM outbox
            WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid AND node = ${step.node} GROUP BY shard) d) AS decided,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('shard', shard, 'iteration', iteration, 'result', result) ORDER BY shard), '[]'::jsonb)
          FROM (SELECT DISTINCT ON (shard) shard, iteration, result FROM node_executions
            WHERE run_id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid AND node = ${step.node} AND status = 'completed'
            ORDER BY shard, iteration DESC) s) AS "perShard"`,
    );
    const row = rows[0]!;
    return { latest: row.latest, loop: { expected: row.expected, decided: row.decided, latest: row.perShard } };
  }

  /**
   * Writes a routing decision in one statement, in the caller's transaction (which holds the run lock): the step's
   * checkpoint, the decided steps into the outbox (a step key that exists is skipped: the unique key makes a join fire
   * once), the run's new state and its event counter in one UPDATE (two updates of one row in one statement would not
   * both apply), the events with the next seqs, and their NOTIFY (delivered on commit only). Returns the outbox rows it
   * inserted.
   */
  async writeTransition(tx: Db, w: TransitionWrite): Promise<OutboxRowData[]> {
    const sets: Prisma.Sql[] = [Prisma.sql`event_seq = event_seq + ${w.events.length}::int`];
    const p = w.patch;
    if (p.currentNode !== undefined) sets.push(Prisma.sql`current_node = ${p.currentNode}::text`);
    if (p.stopReason !== undefined) sets.push(Prisma.sql`stop_reason = ${p.stopReason}::text`);
    if (p.awaitingGate !== undefined) sets.push(Prisma.sql`awaiting_gate = ${p.awaitingGate}::text`);
    if (p.status !== undefined) sets.push(Prisma.sql`status = ${p.status}::text`);
    if (p.completedAt !== undefined) sets.push(Prisma.sql`completed_at = ${p.completedAt}::timestamptz`);
    // As Prisma's @updatedAt did for the run update this replaces: a change of state moves it, an event append alone not.
    if (sets.length > 1) sets.push(Prisma.sql`updated_at = now()`);
    const checkpoint = w.checkpoint
      ? Prisma.sql`, checkpoint AS (
          INSERT INTO workflow_checkpoints (tenant_id, run_id, step_key, state)
          VALUES (${w.tenantId}::uuid, ${w.runId}::uuid, ${w.checkpoint.stepKey}, ${JSON.stringify(w.checkpoint.state)}::jsonb))`
      : Prisma.empty;
    const rows = await queryRows<Omit<OutboxRowData, 'id'> & { id: bigint | null }>(
      tx,
      Prisma.sql`
      WITH counter AS (
        UPDATE research_runs SET ${Prisma.join(sets, ', ')}
        WHERE id = ${w.runId}::uuid AND tenant_id = ${w.tenantId}::uuid
        RETURNING event_seq - ${w.events.length}::int AS base
      ), appended AS (
        INSERT INTO run_events (tenant_id, run_id, seq, type, data)
        SELECT ${w.tenantId}::uuid, ${w.runId}::uuid, counter.base + e.ord, e.value->>'type', e.value
        FROM counter, jsonb_array_elements(${JSON.stringify(w.events)}::jsonb) WITH ORDINALITY AS e(value, ord)
        RETURNING seq
      ), notified AS (
        SELECT pg_notify(${RUN_EVENTS_CHANNEL}, ${w.runId} || ' ' || max(seq)) AS sent FROM appended HAVING count(*) > 0
      ), decided AS (
        INSERT INTO outbox (tenant_id, run_id, step_key, cause_key, node, iteration, shard, payload)
        SELECT ${w.tenantId}::uuid, ${w.runId}::uuid, s->>'stepKey', ${w.causeKey}, s->>'node', (s->>'iteration')::int,
          (s->>'shard')::int, s->'payload'
        FROM jsonb_array_elements(${JSON.stringify(w.steps)}::jsonb) WITH ORDINALITY AS d(s, ord)
        ORDER BY d.ord
        ON CONFLICT (step_key) DO NOTHING
        RETURNING ${OUTBOX_RETURNING}
      )${checkpoint}
      SELECT decided.* FROM (SELECT count(*) AS n FROM notified) notices LEFT JOIN decided ON true`,
    );
    // One row at least (the notices' count), so the NOTIFY is evaluated even when no step was decided.
    return rows.filter((r): r is OutboxRowData => r.id !== null).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

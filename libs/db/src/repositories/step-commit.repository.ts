import { Injectable } from '@nestjs/common';
import type { NodeName, RunEventData, RunStatus } from '@dossier/contracts';
import { Prisma, type Db } from '../prisma.service';
import { queryRows } from '../sql/query-rows';
import type { OutboxRowData } from './outbox.repository';
import { RUN_EVENTS_CHANNEL } from './run-event.repository';
import { RUN_STATE_COLUMNS, RUN_STATE_FIELDS, type RunStateRow } from './run.repository';

/** What the router reads of a run in the deciding transaction, after the run lock. */
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

/** The step's kind decides what of its siblings the router reads. */
export interface StepToComplete {
  stepKey: string;
  node: NodeName;
  iteration: number;
  kind: 'single' | 'fanout' | 'loop';
}

/**
 * The run's state, locked and read (what can have changed since the step started: 0133); whether this attempt completed
 * the step; and when it did, what the router reads (docs/decisions/0121). Not completed (fenced): no state.
 */
export type LockedCompletion = { run: RunStateRow; completed: false } | { run: RunStateRow; completed: true; state: StepStateRows };

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

/** The run's state columns of the locking statement's `run` (a constant: no input reaches it). */
const RUN_STATE_OF_RUN = Prisma.raw(RUN_STATE_FIELDS.map((field) => `run."${field}"`).join(', '));

/** Outbox columns under their OutboxRowData names (a constant: no input reaches it). */
const OUTBOX_RETURNING = Prisma.raw(
  'id, tenant_id AS "tenantId", run_id AS "runId", step_key AS "stepKey", cause_key AS "causeKey", node, iteration, shard, ' +
    'status, payload, created_at AS "createdAt", sent_at AS "sentAt"',
);

/**
 * The statements of a step's completing transaction, each doing what several did before (docs/decisions/0071, 0121):
 * lock the run, complete the step and read what the router needs (one), write the decision (one). Raw SQL: each is a
 * few CTEs (and a function) that Prisma's query builder cannot express, and one round trip each.
 */
@Injectable()
export class StepCommitRepository {
  /**
   * One statement (docs/decisions/0121): locks the run row (for the rest of the transaction), completes the step if
   * `attempt` is still its current attempt (the lease's generation) and it is not completed (fenced: 0070), and reads
   * what the router needs — the latest results, and for a fan-out's shard or a shard loop's turn, the counts and results
   * of its siblings. Null when the run does not exist. Of the run it returns only its state (`RunStateRow`): the
   * step's start statement read the rest, which does not change (docs/decisions/0133).
   *
   * The completion and the read are the function `dossier_complete_step` (migration 20261203110000), called laterally on
   * the locked row: the run is locked before the execution row is touched (lock order run, then execution, 0026), and
   * each statement inside the (VOLATILE) function takes its own snapshot after the lock is held, so the read sees every
   * shard that committed while this statement waited for the lock (the join fires; 0071 kept it a separate statement for
   * that reason alone).
   */
  async completeAndRead(
    tx: Db,
    tenantId: string,
    runId: string,
    step: StepToComplete,
    attempt: number,
    result: unknown,
  ): Promise<LockedCompletion | null> {
    const rows = await queryRows<
      RunStateRow & {
        completedNow: number;
        latest: StepStateRows['latest'] | null;
        expected: number | null;
        done: { stepKey: string; result: unknown }[] | null;
        decided: { shard: number; iteration: number }[] | null;
        perShard: { shard: number; iteration: number; result: unknown }[] | null;
      }
    >(
      tx,
      Prisma.sql`
      WITH run AS MATERIALIZED (
        SELECT id, tenant_id, ${RUN_STATE_COLUMNS} FROM research_runs
        WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE
      )
      SELECT ${RUN_STATE_OF_RUN}, f.completed_now AS "completedNow", f.latest, f.expected, f.done, f.decided, f.per_shard AS "perShard"
      FROM run CROSS JOIN LATERAL dossier_complete_step(run.tenant_id, run.id, ${step.stepKey}::text, ${attempt}::int,
        ${JSON.stringify(result)}::jsonb, ${step.node}::text, ${step.iteration}::int, ${step.kind}::text) f`,
    );
    const row = rows[0];
    if (!row) return null;
    const { completedNow, latest, expected, done, decided, perShard, ...run } = row;
    if (completedNow !== 1) return { run, completed: false };
    const state: StepStateRows = { latest: latest ?? [] };
    if (step.kind === 'fanout') state.fanout = { expected: expected ?? 0, done: done ?? [] };
    if (step.kind === 'loop') state.loop = { expected: expected ?? 0, decided: decided ?? [], latest: perShard ?? [] };
    return { run, completed: true, state };
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

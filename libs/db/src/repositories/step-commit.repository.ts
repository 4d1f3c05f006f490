import { Injectable } from '@nestjs/common';
import type { NodeName, RunEventData, RunStatus } from '@dossier/contracts';
import type { Db, Prisma } from '../prisma.service';
import { fixedStatement, queryRows, type FixedStatement } from '../sql/query-rows';
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
const RUN_STATE_OF_RUN = RUN_STATE_FIELDS.map((field) => `run."${field}"`).join(', ');

/** Outbox columns under their OutboxRowData names (a constant: no input reaches it). */
const OUTBOX_RETURNING =
  'id, tenant_id AS "tenantId", run_id AS "runId", step_key AS "stepKey", cause_key AS "causeKey", node, iteration, shard, ' +
  'status, payload, created_at AS "createdAt", sent_at AS "sentAt"';

/**
 * The step's lock-complete-read (`completeAndRead`), its text built once (docs/decisions/0140): $1 run id, $2 tenant
 * id, $3 step key, $4 attempt, $5 the result (JSON text), $6 node, $7 iteration, $8 the step's kind.
 */
const COMPLETE_AND_READ = fixedStatement(`
      WITH run AS MATERIALIZED (
        SELECT id, tenant_id, ${RUN_STATE_COLUMNS.text} FROM research_runs
        WHERE id = $1::uuid AND tenant_id = $2::uuid FOR UPDATE
      )
      SELECT ${RUN_STATE_OF_RUN}, f.completed_now AS "completedNow", f.latest, f.expected, f.done, f.decided, f.per_shard AS "perShard"
      FROM run CROSS JOIN LATERAL dossier_complete_step(run.tenant_id, run.id, $3::text, $4::int,
        $5::jsonb, $6::text, $7::int, $8::text) f`);

/** The run's columns a transition may set, in the order their values follow $8 (`RunPatch`; absent: unchanged). */
const PATCH_COLUMNS: readonly { field: keyof RunPatch; column: string; type: string }[] = [
  { field: 'currentNode', column: 'current_node', type: 'text' },
  { field: 'stopReason', column: 'stop_reason', type: 'text' },
  { field: 'awaitingGate', column: 'awaiting_gate', type: 'text' },
  { field: 'status', column: 'status', type: 'text' },
  { field: 'completedAt', column: 'completed_at', type: 'timestamptz' },
];
const CHECKPOINT_BIT = 1 << PATCH_COLUMNS.length;

/**
 * The transition statement of one shape (which of the run's columns it sets, whether it writes a checkpoint), its text
 * built the first time that shape is written (docs/decisions/0140): a few dozen shapes at most. $1 run id, $2 tenant
 * id, $3 the number of events, $4 the events (JSON), $5 the run events channel, $6 the run id as the notice's text,
 * $7 the cause key, $8 the decided steps (JSON); then one value per column set, and the checkpoint's step key and state.
 */
const transitions = new Map<number, FixedStatement>();
function transitionStatement(shape: number): FixedStatement {
  let statement = transitions.get(shape);
  if (statement) return statement;
  let n = 8;
  const sets = ['event_seq = event_seq + $3::int'];
  PATCH_COLUMNS.forEach((c, i) => {
    if (shape & (1 << i)) sets.push(`${c.column} = $${++n}::${c.type}`);
  });
  // As Prisma's @updatedAt did for the run update this replaces: a change of state moves it, an event append alone not.
  if (sets.length > 1) sets.push('updated_at = now()');
  const checkpoint =
    shape & CHECKPOINT_BIT
      ? `, checkpoint AS (
          INSERT INTO workflow_checkpoints (tenant_id, run_id, step_key, state)
          VALUES ($2::uuid, $1::uuid, $${++n}::text, $${++n}::jsonb))`
      : '';
  statement = fixedStatement(`
      WITH counter AS (
        UPDATE research_runs SET ${sets.join(', ')}
        WHERE id = $1::uuid AND tenant_id = $2::uuid
        RETURNING event_seq - $3::int AS base
      ), appended AS (
        INSERT INTO run_events (tenant_id, run_id, seq, type, data)
        SELECT $2::uuid, $1::uuid, counter.base + e.ord, e.value->>'type', e.value
        FROM counter, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(value, ord)
        RETURNING seq
      ), notified AS (
        SELECT pg_notify($5::text, $6::text || ' ' || max(seq)) AS sent FROM appended HAVING count(*) > 0
      ), decided AS (
        INSERT INTO outbox (tenant_id, run_id, step_key, cause_key, node, iteration, shard, payload)
        SELECT $2::uuid, $1::uuid, s->>'stepKey', $7::text, s->>'node', (s->>'iteration')::int,
          (s->>'shard')::int, s->'payload'
        FROM jsonb_array_elements($8::jsonb) WITH ORDINALITY AS d(s, ord)
        ORDER BY d.ord
        ON CONFLICT (step_key) DO NOTHING
        RETURNING ${OUTBOX_RETURNING}
      )${checkpoint}
      SELECT decided.* FROM (SELECT count(*) AS n FROM notified) notices LEFT JOIN decided ON true`);
  transitions.set(shape, statement);
  return statement;
}

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
    >(tx, {
      fixed: COMPLETE_AND_READ,
      // $1…$8 of COMPLETE_AND_READ, in order.
      values: [runId, tenantId, step.stepKey, attempt, JSON.stringify(result), step.node, step.iteration, step.kind],
    });
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
   * inserted. The last statement of the caller's transaction: in the step engine's transaction COMMIT is sent behind it
   * and answered with it (docs/decisions/0135), so nothing may be written after it.
   */
  async writeTransition(tx: Db, w: TransitionWrite): Promise<OutboxRowData[]> {
    const p = w.patch;
    // $1…$8 of every transition statement, then the patch's columns and the checkpoint's, in the shape's order.
    const values: unknown[] = [
      w.runId,
      w.tenantId,
      w.events.length,
      JSON.stringify(w.events),
      RUN_EVENTS_CHANNEL,
      w.runId,
      w.causeKey,
      JSON.stringify(w.steps),
    ];
    let shape = 0;
    PATCH_COLUMNS.forEach(({ field }, i) => {
      if (p[field] !== undefined) {
        shape |= 1 << i;
        values.push(p[field]);
      }
    });
    if (w.checkpoint) {
      shape |= CHECKPOINT_BIT;
      values.push(w.checkpoint.stepKey, JSON.stringify(w.checkpoint.state));
    }
    const rows = await queryRows<Omit<OutboxRowData, 'id'> & { id: bigint | null }>(
      tx,
      { fixed: transitionStatement(shape), values },
      // The last statement of its transaction (TransitionWriter.apply writes it last): in a step's transaction COMMIT
      // goes right behind it (docs/decisions/0135).
      { last: true },
    );
    // One row at least (the notices' count), so the NOTIFY is evaluated even when no step was decided.
    return rows.filter((r): r is OutboxRowData => r.id !== null).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

import type { Prisma, PrismaService } from '../prisma.service';
import { fixedStatement, holdWritesThisTurn, queryRows } from '../sql/query-rows';
import { sqlTransaction } from '../sql/sql-transaction';

/** A reservation's row: an llm_calls row with outcome `pending`, its estimate as its figures. */
export type PendingLlmCall = Pick<
  Prisma.LlmCallGetPayload<object>,
  'tenantId' | 'runId' | 'stepKey' | 'role' | 'engine' | 'model' | 'tokensIn' | 'costUsd' | 'requestHash'
>;

/** A run's model spend on one side: settled calls (`inFlight` false) or reservations in flight. */
export interface SpendRow {
  inFlight: boolean;
  tokens: number;
  costUsd: number;
}

/** As long as Prisma's interactive transaction allowed the reservation it replaces (its default `timeout`). */
const RESERVATION_TIMEOUT_MS = 5_000;

const LOCK_RUN_BUDGET = fixedStatement(`SELECT pg_advisory_xact_lock(hashtext('dossier.budget'), hashtext($1::text))::text AS locked`);

// The offline engine's calls cost nothing and are not a budget's; a reservation older than $3 is a dead process's.
const RUN_SPEND = fixedStatement(`SELECT outcome = 'pending' AS "inFlight",
       coalesce(sum(tokens_in::int8 + tokens_out::int8), 0)::float8 AS tokens,
       coalesce(sum(cost_usd), 0)::float8 AS "costUsd"
  FROM llm_calls
 WHERE tenant_id = $1::uuid AND run_id = $2::uuid AND engine <> 'offline'
   AND NOT (outcome = 'pending' AND created_at < $3::timestamptz)
 GROUP BY 1`);

const INSERT_PENDING = fixedStatement(`INSERT INTO llm_calls
       (id, tenant_id, run_id, step_key, role, engine, model, tokens_in, tokens_out, cost_usd, latency_ms, outcome, error, request_hash)
VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::int, 0, $8::float8, 0, 'pending', NULL, $9::text)
RETURNING id::text AS id`);

/**
 * Reserves a model call under its run's budget lock (docs/decisions/0160): the run's transaction-scoped advisory lock,
 * its spend read, `decide` asked, and the `pending` row inserted when it says `reserve`, before the lock is released.
 * Two round trips on the driver: BEGIN, the lock and the read go out together (Postgres runs them in order, so the read
 * sees every reservation committed before the lock was granted), and COMMIT goes right behind the insert. It was an
 * interactive Prisma transaction of five, and the shards of a fan-out reserving at once waited for each other's.
 */
export function reserveUnderRunLock<D>(
  prisma: PrismaService,
  pending: PendingLlmCall,
  staleBefore: Date,
  decide: (spend: SpendRow[]) => D | 'reserve',
): Promise<{ id: string } | D> {
  return sqlTransaction(
    prisma.pool,
    async () => {
      holdWritesThisTurn();
      const locked = queryRows(prisma, { fixed: LOCK_RUN_BUDGET, values: [pending.runId] });
      const spend = queryRows<SpendRow>(prisma, { fixed: RUN_SPEND, values: [pending.tenantId, pending.runId, staleBefore] });
      const [lock, rows] = await Promise.allSettled([locked, spend]);
      if (lock.status === 'rejected') throw lock.reason;
      if (rows.status === 'rejected') throw rows.reason;
      const decided = decide(rows.value);
      if (decided !== 'reserve') return decided;
      const [row] = await queryRows<{ id: string }>(
        prisma,
        {
          fixed: INSERT_PENDING,
          values: [
            pending.tenantId,
            pending.runId,
            pending.stepKey,
            pending.role,
            pending.engine,
            pending.model,
            pending.tokensIn,
            pending.costUsd,
            pending.requestHash,
          ],
        },
        { last: true },
      );
      return { id: row!.id };
    },
    { timeoutMs: RESERVATION_TIMEOUT_MS },
  );
}

import type { BudgetKind } from '@dossier/contracts';
import { redactSecrets } from '@dossier/errors';
import { classifyError } from '@dossier/errors';
import type { RequestEstimate, RequestRecord } from '../engine/engine';
import type { RunSpend, SpendDecision, SpendStore } from '../ports/spend-store';

export interface SpendLimits {
  tokens?: number | undefined;
  costUsd?: number | undefined;
}

export interface RequestKey {
  tenantId: string;
  runId: string;
  stepKey: string;
  role: string;
  engine: string;
  /** What is asked (recorded-answer.ts), kept on the reservation so its answer can be reused by this step. */
  requestHash?: string;
}

/** A reservation left by a worker that died mid-request stops counting after this long (well past a request's timeout). */
export const DEFAULT_STALE_RESERVATION_MS = 5 * 60_000;
/** How long recording an answered request keeps trying while Postgres is unreachable (a restart, a failover). */
export const DEFAULT_SETTLE_PATIENCE_MS = 60_000;
/** How often a request that would overrun the budget together with requests in flight looks again. */
const WAIT_FOR_IN_FLIGHT_MS = 200;

/**
 * The run's model spend, kept in llm_calls through the SpendStore port. Before a request its estimate (prompt
 * tokens + the output cap) is reserved as a `pending` row under a per-run lock (Postgres: an advisory lock);
 * after the request the row gets the provider's real figures. Under the lock, `decide` applies the budgets. So however many workers call at once, the run ends at most one request past
 * its budget (docs/architecture.md §2.4), and parallel requests are not refused merely for what they might cost.
 */
export class BudgetLedger {
  constructor(
    private readonly store: SpendStore,
    private readonly staleMs: number = DEFAULT_STALE_RESERVATION_MS,
    private readonly settlePatienceMs: number = DEFAULT_SETTLE_PATIENCE_MS,
  ) {}

  async reserve(key: RequestKey, estimate: RequestEstimate, limits: SpendLimits): Promise<{ id: string } | { exhausted: BudgetKind }> {
    for (;;) {
      const decided = await this.tryReserve(key, estimate, limits);
      if (decided !== 'wait') return decided;
      await new Promise((r) => setTimeout(r, WAIT_FOR_IN_FLIGHT_MS));
    }
  }

  private async tryReserve(
    key: RequestKey,
    estimate: RequestEstimate,
    limits: SpendLimits,
  ): Promise<{ id: string } | { exhausted: BudgetKind } | 'wait'> {
    const pending = {
      tenantId: key.tenantId,
      runId: key.runId,
      stepKey: key.stepKey,
      role: key.role,
      engine: key.engine,
      model: estimate.model,
      tokensIn: estimate.tokens,
      costUsd: estimate.costUsd,
      requestHash: key.requestHash ?? null,
    };
    if (limits.tokens === undefined && limits.costUsd === undefined) return this.store.reserve(pending);
    return this.store.reserveChecked(pending, new Date(Date.now() - this.staleMs), (run) => decide(run, estimate, limits));
  }

  /**
   * The request's real figures (and its answer) replace its reservation. An answer is paid for: if Postgres is
   * briefly unreachable, recording it is retried for a while rather than lost (a lost answer is paid again when
   * the step runs again).
   */
  async settle(tenantId: string, id: string, record: RequestRecord): Promise<void> {
    const write = () =>
      this.store.settle(tenantId, id, {
        model: record.model,
        tokensIn: record.tokensIn,
        tokensOut: record.tokensOut,
        costUsd: record.costUsd,
        latencyMs: record.latencyMs,
        outcome: record.outcome,
        // Engines redact their error text; llm_calls is tenant data, so the ledger checks again.
        error: record.error === null ? null : redactSecrets(record.error),
        ...(record.answer ? { answer: record.answer } : {}),
        ...(record.notes ? { notes: record.notes } : {}),
      });
    const giveUpAt = Date.now() + this.settlePatienceMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (err) {
        if (classifyError(err) !== 'retryable' || Date.now() >= giveUpAt) throw err;
        await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
      }
    }
  }
}

/**
 * The budget rule, decided under the run's lock: a request starts when what is spent is under every budget and
 * either its estimate fits beside the requests in flight or none is in flight; otherwise it waits for those to
 * settle. What is spent reaching a budget exhausts it.
 */
export function decide(run: RunSpend, estimate: RequestEstimate, limits: SpendLimits): SpendDecision {
  if (limits.tokens !== undefined && run.spent.tokens >= limits.tokens) return { exhausted: 'tokens' };
  if (limits.costUsd !== undefined && run.spent.costUsd >= limits.costUsd) return { exhausted: 'cost' };
  const fits =
    (limits.tokens === undefined || run.spent.tokens + run.inFlight.tokens + estimate.tokens <= limits.tokens) &&
    (limits.costUsd === undefined || run.spent.costUsd + run.inFlight.costUsd + estimate.costUsd <= limits.costUsd);
  return !fits && run.anyInFlight ? 'wait' : 'reserve';
}

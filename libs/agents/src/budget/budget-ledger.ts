import type { BudgetKind } from '@dossier/contracts';
import { redactSecrets } from '@dossier/errors';
import type { PrismaService } from '@dossier/db';
import { classifyError } from '@dossier/errors';
import type { RequestEstimate, RequestRecord } from '../engine/engine';

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
 * The run's model spend, kept in llm_calls. Before a request its estimate (prompt tokens + the output cap) is
 * reserved as a `pending` row under a per-run advisory lock; after the request the row gets the provider's real
 * figures. A request starts when what is spent is under every budget and either its estimate fits beside the
 * requests in flight or none is in flight; otherwise it waits for those to settle. When what is spent reaches a
 * budget, the budget is exhausted. So however many workers call at once, the run ends at most one request past
 * its budget (docs/architecture.md §2.4), and parallel requests are not refused merely for what they might cost.
 */
export class BudgetLedger {
  constructor(
    private readonly prisma: PrismaService,
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
    return this.prisma.$transaction(async (tx) => {
      if (limits.tokens !== undefined || limits.costUsd !== undefined) {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('dossier.budget'), hashtext(${key.runId}))::text AS locked`;
        const rows = await tx.llmCall.groupBy({
          by: ['outcome'],
          where: {
            tenantId: key.tenantId,
            runId: key.runId,
            engine: { not: 'offline' },
            NOT: { outcome: 'pending', createdAt: { lt: new Date(Date.now() - this.staleMs) } },
          },
          _sum: { tokensIn: true, tokensOut: true, costUsd: true },
        });
        const sum = (pending: boolean) =>
          rows
            .filter((r) => (r.outcome === 'pending') === pending)
            .reduce(
              (acc, r) => ({
                tokens: acc.tokens + (r._sum.tokensIn ?? 0) + (r._sum.tokensOut ?? 0),
                cost: acc.cost + (r._sum.costUsd ?? 0),
              }),
              { tokens: 0, cost: 0 },
            );
        const spent = sum(false);
        const inFlight = sum(true);
        if (limits.tokens !== undefined && spent.tokens >= limits.tokens) return { exhausted: 'tokens' as const };
        if (limits.costUsd !== undefined && spent.cost >= limits.costUsd) return { exhausted: 'cost' as const };
        const fits =
          (limits.tokens === undefined || spent.tokens + inFlight.tokens + estimate.tokens <= limits.tokens) &&
          (limits.costUsd === undefined || spent.cost + inFlight.cost + estimate.costUsd <= limits.costUsd);
        const anyInFlight = rows.some((r) => r.outcome === 'pending');
        if (!fits && anyInFlight) return 'wait' as const;
      }
      const row = await tx.llmCall.create({
        data: {
          tenantId: key.tenantId,
          runId: key.runId,
          stepKey: key.stepKey,
          role: key.role,
          engine: key.engine,
          model: estimate.model,
          tokensIn: estimate.tokens,
          tokensOut: 0,
          costUsd: estimate.costUsd,
          latencyMs: 0,
          outcome: 'pending',
          requestHash: key.requestHash ?? null,
        },
        select: { id: true },
      });
      return { id: row.id };
    });
  }

  /**
   * The request's real figures (and its answer) replace its reservation. An answer is paid for: if Postgres is
   * briefly unreachable, recording it is retried for a while rather than lost (a lost answer is paid again when
   * the step runs again).
   */
  async settle(tenantId: string, id: string, record: RequestRecord): Promise<void> {
    const write = () =>
      this.prisma.llmCall.updateMany({
        where: { id, tenantId },
        data: {
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
        },
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

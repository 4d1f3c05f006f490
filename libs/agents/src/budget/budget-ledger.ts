import type { BudgetKind } from '@dossier/contracts';
import type { PrismaService } from '@dossier/db';
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
}

/** A reservation left by a worker that died mid-request stops counting after this long. */
export const DEFAULT_STALE_RESERVATION_MS = 15 * 60_000;

/**
 * The run's model spend, kept in llm_calls. Before a request its estimate (prompt tokens + the output cap) is
 * reserved as a `pending` row, under a per-run advisory lock, only if what is spent and reserved is still under
 * every budget; after the request the row gets the provider's real figures. So however many workers call at
 * once, every request starts with the budget not yet reached by the requests before it, and the run ends at
 * most one request past its budget (DESIGN §2.4).
 */
export class BudgetLedger {
  constructor(
    private readonly prisma: PrismaService,
    private readonly staleMs: number = DEFAULT_STALE_RESERVATION_MS,
  ) {}

  async reserve(key: RequestKey, estimate: RequestEstimate, limits: SpendLimits): Promise<{ id: string } | { exhausted: BudgetKind }> {
    return this.prisma.$transaction(async (tx) => {
      if (limits.tokens !== undefined || limits.costUsd !== undefined) {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('dossier.budget'), hashtext(${key.runId}))::text AS locked`;
        const spent = await tx.llmCall.aggregate({
          where: {
            tenantId: key.tenantId,
            runId: key.runId,
            engine: { not: 'offline' },
            NOT: { outcome: 'pending', createdAt: { lt: new Date(Date.now() - this.staleMs) } },
          },
          _sum: { tokensIn: true, tokensOut: true, costUsd: true },
        });
        const tokens = (spent._sum.tokensIn ?? 0) + (spent._sum.tokensOut ?? 0);
        if (limits.tokens !== undefined && tokens >= limits.tokens) return { exhausted: 'tokens' as const };
        if (limits.costUsd !== undefined && (spent._sum.costUsd ?? 0) >= limits.costUsd) return { exhausted: 'cost' as const };
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
        },
        select: { id: true },
      });
      return { id: row.id };
    });
  }

  /** The request's real figures replace its reservation. */
  async settle(tenantId: string, id: string, record: RequestRecord): Promise<void> {
    await this.prisma.llmCall.updateMany({
      where: { id, tenantId },
      data: {
        model: record.model,
        tokensIn: record.tokensIn,
        tokensOut: record.tokensOut,
        costUsd: record.costUsd,
        latencyMs: record.latencyMs,
        outcome: record.outcome,
        error: record.error,
      },
    });
  }
}

import type { Db } from '../prisma.service';

/**
 * Figures across every tenant, for the operator's `/metrics` (never for a tenant's answer): runs by status and the
 * tokens and cost recorded in llm_calls. Read at scrape time, so they are right on any gateway replica.
 */
export const platformTotals = {
  async runsByStatus(db: Db): Promise<{ status: string; count: number }[]> {
    const rows = await db.researchRun.groupBy({ by: ['status'], _count: true });
    return rows.map((r) => ({ status: r.status, count: r._count }));
  },

  async llmUsage(db: Db): Promise<{ tokensIn: number; tokensOut: number; costUsd: number }> {
    const sum = await db.llmCall.aggregate({ _sum: { tokensIn: true, tokensOut: true, costUsd: true } });
    return { tokensIn: sum._sum.tokensIn ?? 0, tokensOut: sum._sum.tokensOut ?? 0, costUsd: sum._sum.costUsd ?? 0 };
  },
};

import type { Db } from '../prisma.service';

/** What the agents' budget ledger reads of a run: its options and whether its budget ran out. */
export function runBudgetSettings(db: Db, tenantId: string, runId: string) {
  return db.researchRun.findFirst({ where: { id: runId, tenantId }, select: { options: true, budgetExhausted: true } });
}

/** Whether the run's embeddings fell back to the offline embedder (the first fallback is kept on the run). */
export async function embeddingsFellBack(db: Db, tenantId: string, runId: string): Promise<boolean> {
  const run = await db.researchRun.findFirst({ where: { id: runId, tenantId }, select: { embeddingsFallback: true } });
  return run?.embeddingsFallback != null;
}

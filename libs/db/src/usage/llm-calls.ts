import type { Db, Prisma } from '../prisma.service';

/**
 * llm_calls as the agents' budget ledger writes and reads it (PrismaAgentStore, the agents' ports over Postgres):
 * a call recorded whole, or reserved (`pending`) before it is made and settled after.
 */
export async function insertLlmCall(db: Db, call: Prisma.LlmCallUncheckedCreateInput): Promise<void> {
  await db.llmCall.create({ data: call });
}

/** Reserves a call: its `pending` row; returns its id. */
export function reserveLlmCall(db: Db, pending: Prisma.LlmCallUncheckedCreateInput): Promise<{ id: string }> {
  return db.llmCall.create({ data: pending, select: { id: true } });
}

export async function settleLlmCall(db: Db, tenantId: string, id: string, settled: Prisma.LlmCallUncheckedUpdateManyInput): Promise<void> {
  await db.llmCall.updateMany({ where: { id, tenantId }, data: settled });
}

/** The answers recorded for one request of a step (a replay reads them back), oldest first, at most `limit`. */
export function answeredCalls(
  db: Db,
  q: { tenantId: string; runId: string; stepKey: string; requestHash: string; outcomes: readonly string[]; limit: number },
): Promise<{ id: string; answer: unknown }[]> {
  return db.llmCall.findMany({
    where: { tenantId: q.tenantId, runId: q.runId, stepKey: q.stepKey, requestHash: q.requestHash, outcome: { in: [...q.outcomes] } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, answer: true },
    take: q.limit,
  });
}

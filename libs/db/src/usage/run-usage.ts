import type { Db } from '../prisma.service';

/** What a run's model calls cost, by role, model and engine (the report's method section and usage). */
export function callUsage(db: Db, tenantId: string, runId: string) {
  return db.llmCall.groupBy({
    by: ['role', 'model', 'engine'],
    where: { tenantId, runId },
    _count: { _all: true },
    _sum: { tokensIn: true, tokensOut: true, costUsd: true },
  });
}

/** The notes each of a run's calls kept about the model's output (what was dropped or repaired), with role and engine. */
export function callNotes(db: Db, tenantId: string, runId: string) {
  return db.llmCall.findMany({ where: { tenantId, runId }, select: { role: true, engine: true, notes: true } });
}

/** Search queries a run issued: one per search plan (the survey), one per interview turn (issue 28). */
export async function queriesIssued(db: Db, tenantId: string, runId: string): Promise<number> {
  const where = { tenantId, runId };
  const [plans, turns] = await Promise.all([db.searchPlan.count({ where }), db.interviewTurn.count({ where })]);
  return plans + turns;
}

/** Research iterations a run finished: its completed moderate steps. */
export function iterationsCompleted(db: Db, tenantId: string, runId: string): Promise<number> {
  return db.nodeExecution.count({ where: { tenantId, runId, node: 'moderate', status: 'completed' } });
}

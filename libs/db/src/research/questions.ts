import type { Db, Prisma } from '../prisma.service';

export async function insertQuestions(tx: Db, rows: Prisma.ResearchQuestionCreateManyInput[]): Promise<void> {
  await tx.researchQuestion.createMany({ data: rows });
}

export async function insertQuestion(tx: Db, row: Prisma.ResearchQuestionUncheckedCreateInput): Promise<void> {
  await tx.researchQuestion.create({ data: row });
}

/** A question a reviewer edited: its text, priority and analyst. */
export async function updateQuestion(
  tx: Db,
  tenantId: string,
  runId: string,
  id: string,
  fields: { text: string; priority: number; perspectiveId: string | null },
): Promise<void> {
  await tx.researchQuestion.updateMany({ where: { tenantId, runId, id }, data: fields });
}

/** Drops every question still in the plan (a new plan revision replaces them). */
export async function dropPlanQuestions(tx: Db, tenantId: string, runId: string): Promise<void> {
  await tx.researchQuestion.updateMany({ where: { tenantId, runId, status: { not: 'dropped' } }, data: { status: 'dropped' } });
}

/**
 * Sets the status of the run's questions `ids` (`dropped` by a plan edit, `partial` once searched, `answered` by
 * coverage); with `from`, only of those that have that status now.
 */
export async function setQuestionStatus(
  tx: Db,
  tenantId: string,
  runId: string,
  ids: string[],
  status: string,
  from?: string,
): Promise<void> {
  await tx.researchQuestion.updateMany({
    where: { tenantId, runId, id: { in: ids }, ...(from === undefined ? {} : { status: from }) },
    data: { status },
  });
}

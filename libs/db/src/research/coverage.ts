import type { Db, Prisma } from '../prisma.service';

/** How well an iteration's evidence answers each question. */
export async function insertCoverage(tx: Db, rows: Prisma.QuestionCoverageCreateManyInput[]): Promise<void> {
  await tx.questionCoverage.createMany({ data: rows, skipDuplicates: true });
}

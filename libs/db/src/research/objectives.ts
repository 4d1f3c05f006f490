import type { Db, Prisma } from '../prisma.service';

/** A run's objective (scope), the first one written: insert-if-absent in one statement, never a unique violation. */
export async function insertObjective(tx: Db, row: Prisma.ResearchObjectiveCreateManyInput): Promise<void> {
  await tx.researchObjective.createMany({ data: [row], skipDuplicates: true });
}

import type { Db, Prisma } from '../prisma.service';

export async function insertContradictions(tx: Db, rows: Prisma.ContradictionCreateManyInput[]): Promise<void> {
  await tx.contradiction.createMany({ data: rows, skipDuplicates: true });
}

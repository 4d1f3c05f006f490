import type { Db, Prisma } from '../prisma.service';

/** An iteration's search queries, one per shard. */
export async function insertSearchPlans(tx: Db, rows: Prisma.SearchPlanCreateManyInput[]): Promise<void> {
  await tx.searchPlan.createMany({ data: rows });
}

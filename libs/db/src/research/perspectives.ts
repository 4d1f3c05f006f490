import type { Db, Prisma } from '../prisma.service';

type PerspectiveFields = Pick<Prisma.PerspectiveUncheckedUpdateManyInput, 'name' | 'role' | 'affiliation' | 'focus'>;

/** A plan revision's analysts (the perspectives step). */
export async function insertPerspectives(tx: Db, rows: Prisma.PerspectiveCreateManyInput[]): Promise<void> {
  await tx.perspective.createMany({ data: rows });
}

/** One analyst a reviewer added to the plan under review. */
export async function insertPerspective(tx: Db, row: Prisma.PerspectiveUncheckedCreateInput): Promise<void> {
  await tx.perspective.create({ data: row });
}

/** Analysts a reviewer changed (name, role, affiliation, focus). */
export async function updatePerspective(tx: Db, tenantId: string, runId: string, id: string, fields: PerspectiveFields): Promise<void> {
  await tx.perspective.updateMany({ where: { tenantId, runId, id }, data: fields });
}

/** Analysts a reviewer removed from the plan. */
export async function deletePerspectives(tx: Db, tenantId: string, runId: string, ids: string[]): Promise<void> {
  await tx.perspective.deleteMany({ where: { tenantId, runId, id: { in: ids } } });
}

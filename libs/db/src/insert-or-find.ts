import { WriteConflictError } from '@dossier/errors';

export interface InsertOrFound<T> {
  row: T;
  /** True when this call inserted the row, false when it was there already (or another caller won). */
  created: boolean;
}

/**
 * "Create on first use" without a race (docs/decisions/0012). `insert` must be one INSERT … ON CONFLICT DO
 * NOTHING … RETURNING (Prisma: `createManyAndReturn({ data: [row], skipDuplicates: true })`), so concurrent
 * callers never see a unique violation: one inserts, the others skip. `find` reads the row by the same
 * unique key. When the insert skipped, Postgres had waited for the conflicting row's transaction to commit,
 * so `find` (a new statement, READ COMMITTED) sees it. A read-then-insert (Prisma `upsert` with an empty
 * `update`) is not atomic: two callers both read nothing and the second insert fails with P2002.
 */
export async function insertOrFind<T>(
  what: string,
  insert: () => Promise<readonly T[]>,
  find: () => Promise<T | null>,
): Promise<InsertOrFound<T>> {
  const [inserted] = await insert();
  if (inserted !== undefined) return { row: inserted, created: true };
  const found = await find();
  if (found !== null) return { row: found, created: false };
  throw new WriteConflictError(`${what} existed when it was inserted but not when it was read back; try again`);
}

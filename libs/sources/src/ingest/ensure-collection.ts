import { insertOrFind, type Db } from '@dossier/db';

/**
 * The collection of that name for the tenant, created on first use. Safe under concurrent callers (gateway
 * replicas, CLI ingest processes, two ingestions in one process): one INSERT … ON CONFLICT DO NOTHING
 * decides, the others read the winner's row; `created` says which one this caller was.
 */
export async function ensureCollection(db: Db, tenantId: string, name: string): Promise<{ id: string; name: string; created: boolean }> {
  const { row, created } = await insertOrFind(
    `collection "${name}"`,
    () => db.collection.createManyAndReturn({ data: [{ tenantId, name }], skipDuplicates: true, select: { id: true, name: true } }),
    () => db.collection.findUnique({ where: { tenantId_name: { tenantId, name } }, select: { id: true, name: true } }),
  );
  return { ...row, created };
}

import type { CollectionView } from '@dossier/contracts';
import { insertOrFind } from '../insert-or-find';
import type { Db } from '../prisma.service';

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

/** The id of the tenant's collection `name`, created if absent (a follow-up's collection of a run's sources). */
export async function createOrFindCollectionId(db: Db, tenantId: string, name: string): Promise<string> {
  await db.collection.createMany({ data: [{ tenantId, name }], skipDuplicates: true });
  const { id } = await db.collection.findUniqueOrThrow({ where: { tenantId_name: { tenantId, name } }, select: { id: true } });
  return id;
}

/** A tenant's collections with their document counts, by name. */
export async function listCollections(db: Db, tenantId: string): Promise<CollectionView[]> {
  const rows = await db.collection.findMany({
    where: { tenantId },
    orderBy: { name: 'asc' },
    include: { _count: { select: { documents: true } } },
  });
  return rows.map((r) => ({ id: r.id, name: r.name, documents: r._count.documents }));
}

/** One collection of the tenant by id or by name; null when the tenant has none such (another tenant's too). */
export async function findCollection(db: Db, tenantId: string, by: { id: string } | { name: string }): Promise<CollectionView | null> {
  const row = await db.collection.findFirst({ where: { tenantId, ...by }, include: { _count: { select: { documents: true } } } });
  return row ? { id: row.id, name: row.name, documents: row._count.documents } : null;
}

/** The id of the tenant's collection `name`, or null. */
export async function collectionIdByName(db: Db, tenantId: string, name: string): Promise<string | null> {
  const found = await db.collection.findFirst({ where: { tenantId, name }, select: { id: true } });
  return found?.id ?? null;
}

/** The kinds of the tenant's collections named (decision 0056); a name the tenant has no collection of is absent. */
export async function collectionKinds(db: Db, tenantId: string, names: string[]): Promise<{ name: string; kind: string | null }[]> {
  return db.collection.findMany({ where: { tenantId, name: { in: names } }, select: { name: true, kind: true } });
}

/** A collection's kind (it must exist). */
export async function collectionKind(db: Db, collectionId: string): Promise<string | null> {
  return (await db.collection.findUniqueOrThrow({ where: { id: collectionId }, select: { kind: true } })).kind;
}

export async function setCollectionKind(db: Db, collectionId: string, kind: string | null): Promise<void> {
  await db.collection.update({ where: { id: collectionId }, data: { kind } });
}

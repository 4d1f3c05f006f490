import type { CollectionView } from '@dossier/contracts';
import type { Db } from '@dossier/db';

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

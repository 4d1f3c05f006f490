import type { Db } from '@dossier/db';

/** The collection of that name for the tenant, created on first use (safe under concurrent callers). */
export async function ensureCollection(db: Db, tenantId: string, name: string): Promise<{ id: string; name: string }> {
  return db.collection.upsert({
    where: { tenantId_name: { tenantId, name } },
    create: { tenantId, name },
    update: {},
    select: { id: true, name: true },
  });
}

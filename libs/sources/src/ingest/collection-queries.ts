import type { CollectionView } from '@dossier/contracts';
import type { Db } from '@dossier/db';
import { globToRegExp } from './documentation-folder';

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

/** One stored document as `dossier documents list` shows it. */
export interface DocumentListing {
  id: string;
  path: string;
  title: string;
  mediaType: string;
  /** The same page in other formats, not stored (decision 0055). */
  aliases: string[];
  chars: number;
  ingestedAt: Date;
}

/** The documents of a tenant's collection by path; null when the collection does not exist. */
export async function listDocuments(db: Db, tenantId: string, collection: string): Promise<DocumentListing[] | null> {
  const found = await db.collection.findFirst({ where: { tenantId, name: collection }, select: { id: true } });
  if (!found) return null;
  const rows = await db.$queryRaw<DocumentListing[]>`
    SELECT id::text AS id, path, title, media_type AS "mediaType", aliases, length(text)::int AS chars, ingested_at AS "ingestedAt"
    FROM documents WHERE tenant_id = ${tenantId}::uuid AND collection_id = ${found.id}::uuid ORDER BY path`;
  return rows;
}

/**
 * Removes the documents of a collection named by path or glob (`api/*.md`, `**\/CHANGELOG*`; a pattern without `/`
 * matches file names), a pattern matching a document's path or one of its aliases. Their passages go with them (foreign
 * key). Returns the removed paths; null when the collection does not exist.
 */
export async function removeDocuments(db: Db, tenantId: string, collection: string, patterns: readonly string[]): Promise<string[] | null> {
  const found = await db.collection.findFirst({ where: { tenantId, name: collection }, select: { id: true } });
  if (!found) return null;
  const rows = await db.document.findMany({ where: { tenantId, collectionId: found.id }, select: { id: true, path: true, aliases: true } });
  const matchers = patterns.map((p) => {
    const re = globToRegExp(p.replace(/^\.\//, ''));
    return (candidate: string) => re.test(p.includes('/') ? candidate : (candidate.split('/').pop() ?? candidate));
  });
  const doomed = rows.filter((r) => [r.path, ...r.aliases].some((candidate) => matchers.some((m) => m(candidate))));
  if (doomed.length > 0) await db.document.deleteMany({ where: { tenantId, collectionId: found.id, id: { in: doomed.map((d) => d.id) } } });
  return doomed.map((d) => d.path);
}

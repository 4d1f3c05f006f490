import type { Db, Prisma } from '../prisma.service';
import { collectionIdByName } from './collections';

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

/** The columns of a stored document that decide what happens to an ingested file (plan-batch.ts): the same path or the same text. */
export interface StoredDocument {
  id: string;
  path: string;
  contentHash: string;
  title: string;
  mediaType: string;
  aliases: string[];
}

/** The documents of a tenant's collection by path; null when the collection does not exist. */
export async function listDocuments(db: Db, tenantId: string, collection: string): Promise<DocumentListing[] | null> {
  const collectionId = await collectionIdByName(db, tenantId, collection);
  if (collectionId === null) return null;
  const rows = await db.$queryRaw<DocumentListing[]>`
    SELECT id::text AS id, path, title, media_type AS "mediaType", aliases, length(text)::int AS chars, ingested_at AS "ingestedAt"
    FROM documents WHERE tenant_id = ${tenantId}::uuid AND collection_id = ${collectionId}::uuid ORDER BY path`;
  return rows;
}

/** Every document of a collection: its id, path and aliases (what `documents remove` matches patterns against). */
export function documentPaths(db: Db, tenantId: string, collectionId: string): Promise<{ id: string; path: string; aliases: string[] }[]> {
  return db.document.findMany({ where: { tenantId, collectionId }, select: { id: true, path: true, aliases: true } });
}

/** Removes documents of a tenant's collection by id; their passages go with them (foreign key). */
export async function deleteDocuments(db: Db, tenantId: string, collectionId: string, ids: string[]): Promise<void> {
  await db.document.deleteMany({ where: { tenantId, collectionId, id: { in: ids } } });
}

/** The collection's documents stored at one of `paths` or with one of `contentHashes`. */
export function storedDocuments(tx: Db, collectionId: string, paths: string[], contentHashes: string[]): Promise<StoredDocument[]> {
  return tx.document.findMany({
    where: { collectionId, OR: [{ path: { in: paths } }, { contentHash: { in: contentHashes } }] },
    select: { id: true, path: true, contentHash: true, title: true, mediaType: true, aliases: true },
  });
}

/** Ingestion's three writes of a batch: removes, rewrites and inserts documents of one collection. */
export async function deleteCollectionDocuments(tx: Db, collectionId: string, ids: string[]): Promise<void> {
  await tx.document.deleteMany({ where: { id: { in: ids }, collectionId } });
}

export async function updateDocument(tx: Db, id: string, data: Prisma.DocumentUncheckedUpdateInput): Promise<void> {
  await tx.document.update({ where: { id }, data });
}

export async function insertDocuments(tx: Db, rows: Prisma.DocumentCreateManyInput[]): Promise<void> {
  await tx.document.createMany({ data: rows });
}

/** Documents a follow-up's collection may have already (same path or text): those are left as they are. */
export async function insertDocumentsIfAbsent(db: Db, rows: Prisma.DocumentCreateManyInput[]): Promise<void> {
  await db.document.createMany({ data: rows, skipDuplicates: true });
}

/** Removes the collection's documents at `paths`; returns how many there were. */
export async function deleteDocumentsAt(db: Db, collectionId: string, paths: string[]): Promise<number> {
  return (await db.document.deleteMany({ where: { collectionId, path: { in: paths } } })).count;
}

import { WriteConflictError } from '@dossier/errors';
import { insertOrFind, type InsertOrFound } from '../insert-or-find';
import type { Db, Prisma } from '../prisma.service';

export type SnapshotRow = Prisma.SourceSnapshotGetPayload<object>;

/** What a corpus document's snapshot is made of: its text and where it is (collection name, path). */
export function documentForSnapshot(db: Db, tenantId: string, documentId: string) {
  return db.document.findFirst({
    where: { id: documentId, tenantId },
    select: { path: true, title: true, text: true, mediaType: true, contentHash: true, collection: { select: { name: true } } },
  });
}

/** `documentForSnapshot` of several documents in one statement, by id (a document not found, or another tenant's, is absent). */
export async function documentsForSnapshot(db: Db, tenantId: string, documentIds: readonly string[]) {
  const rows = await db.document.findMany({
    where: { id: { in: [...documentIds] }, tenantId },
    select: { id: true, path: true, title: true, text: true, mediaType: true, contentHash: true, collection: { select: { name: true } } },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * `insertOrFindSnapshot` of several snapshots: one INSERT … ON CONFLICT DO NOTHING … RETURNING for all, then one read of
 * those another caller had stored; the stored row of each, by content hash. The rows go in in content-hash order, so
 * two callers storing overlapping sets at once take their new rows in the same order and one waits for the other
 * instead of each holding a row the other waits for (the deadlock of docs/decisions/0012).
 */
export async function insertOrFindSnapshots(
  db: Db,
  tenantId: string,
  data: readonly Prisma.SourceSnapshotCreateManyInput[],
): Promise<Map<string, SnapshotRow>> {
  const byHash = new Map(data.map((d) => [d.contentHash, { ...d, tenantId }]));
  const rows = [...byHash.values()].sort((a, b) => (a.contentHash < b.contentHash ? -1 : a.contentHash > b.contentHash ? 1 : 0));
  const stored = new Map<string, SnapshotRow>();
  if (rows.length === 0) return stored;
  for (const row of await db.sourceSnapshot.createManyAndReturn({ data: rows, skipDuplicates: true })) stored.set(row.contentHash, row);
  const missing = rows.filter((r) => !stored.has(r.contentHash)).map((r) => r.contentHash);
  if (missing.length > 0) {
    for (const row of await db.sourceSnapshot.findMany({ where: { tenantId, contentHash: { in: missing } } }))
      stored.set(row.contentHash, row);
  }
  const lost = missing.find((h) => !stored.has(h));
  if (lost) throw new WriteConflictError(`snapshot ${lost} existed when it was inserted but not when it was read back; try again`);
  return stored;
}

/** The tenant's most recent snapshot of `url` fetched (or re-confirmed) at or after `since`, or null. */
export function freshSnapshotByUrl(db: Db, tenantId: string, url: string, since: Date): Promise<SnapshotRow | null> {
  return db.sourceSnapshot.findFirst({ where: { tenantId, url, fetchedAt: { gte: since } }, orderBy: { fetchedAt: 'desc' } });
}

/** Inserts the snapshot unless the tenant has one of that text; returns the stored one either way (decision 0012). */
export function insertOrFindSnapshot(db: Db, data: Prisma.SourceSnapshotCreateManyInput): Promise<InsertOrFound<SnapshotRow>> {
  return insertOrFind(
    `snapshot ${data.contentHash}`,
    () => db.sourceSnapshot.createManyAndReturn({ data: [data], skipDuplicates: true }),
    () => db.sourceSnapshot.findUnique({ where: { tenantId_contentHash: { tenantId: data.tenantId, contentHash: data.contentHash } } }),
  );
}

/** Moves a snapshot's `fetchedAt` forward to `fetchedAt` (never back: a concurrent fetch may have confirmed it later); returns it. */
export async function confirmSnapshotFetched(db: Db, id: string, fetchedAt: Date): Promise<SnapshotRow> {
  const [moved] = await db.sourceSnapshot.updateManyAndReturn({ where: { id, fetchedAt: { lt: fetchedAt } }, data: { fetchedAt } });
  // Not moved: a concurrent fetch confirmed it later than this one did.
  return moved ?? (await db.sourceSnapshot.findUniqueOrThrow({ where: { id } }));
}

/** The tenant's snapshot, or null. */
export function findSnapshot(db: Db, tenantId: string, snapshotId: string): Promise<SnapshotRow | null> {
  return db.sourceSnapshot.findFirst({ where: { id: snapshotId, tenantId } });
}

/** The ids of the snapshots a run read: its source records' (not excluded) and its evidence's. */
export async function snapshotIdsOfRun(db: Db, tenantId: string, runId: string): Promise<string[]> {
  const [records, evidence] = await Promise.all([
    db.sourceRecord.findMany({ where: { tenantId, runId, snapshotId: { not: null }, excludedBy: null }, select: { snapshotId: true } }),
    db.evidenceFragment.findMany({ where: { tenantId, runId }, select: { snapshotId: true }, distinct: ['snapshotId'] }),
  ]);
  return [...new Set([...records.map((r) => r.snapshotId!), ...evidence.map((e) => e.snapshotId)])];
}

/** Whether the run read that snapshot: a source record or evidence of the run points at it. */
export async function runReadSnapshot(db: Db, tenantId: string, runId: string, snapshotId: string): Promise<boolean> {
  const where = { tenantId, runId, snapshotId };
  const [records, evidence] = await Promise.all([db.sourceRecord.count({ where }), db.evidenceFragment.count({ where })]);
  return records > 0 || evidence > 0;
}

/** The text of snapshots, by content hash, as a follow-up's documents are made of. */
export function snapshotTexts(
  db: Db,
  tenantId: string,
  ids: string[],
): Promise<{ title: string; text: string; contentHash: string; mediaType: string }[]> {
  return db.sourceSnapshot.findMany({
    where: { tenantId, id: { in: ids } },
    select: { title: true, text: true, contentHash: true, mediaType: true },
    orderBy: { contentHash: 'asc' },
  });
}

import type { Db, Prisma } from '../prisma.service';

/** The search hits of a search plan, in one statement (in the order given). */
export async function insertSourceRecords(tx: Db, rows: readonly Prisma.SourceRecordCreateManyInput[]): Promise<void> {
  if (rows.length > 0) await tx.sourceRecord.createMany({ data: [...rows] });
}

/** What the source policy decided about every record of one source (canonical URL) in an iteration. */
export async function rankSource(
  tx: Db,
  where: { tenantId: string; runId: string; iteration: number; canonicalUrl: string },
  data: Pick<Prisma.SourceRecordUncheckedUpdateManyInput, 'authority' | 'clusterKey' | 'snapshotId' | 'selected' | 'extractShard'>,
): Promise<void> {
  await tx.sourceRecord.updateMany({ where, data });
}

/** The record that carries a chosen source's extract shard. */
export async function selectForExtract(tx: Db, tenantId: string, id: string, extractShard: number): Promise<void> {
  await tx.sourceRecord.updateMany({ where: { tenantId, id }, data: { selected: true, extractShard } });
}

import type { Db, Prisma } from '../prisma.service';

/** Evidence fragments; one already stored (same snapshot and span) keeps its row. */
export async function insertEvidence(tx: Db, rows: Prisma.EvidenceFragmentCreateManyInput[]): Promise<void> {
  await tx.evidenceFragment.createMany({ data: rows, skipDuplicates: true });
}

/** Stores a fragment unless the run has one of that span of that snapshot; returns the id of the stored one either way. */
export async function keepEvidence(tx: Db, row: Prisma.EvidenceFragmentCreateManyInput): Promise<string> {
  await tx.evidenceFragment.createMany({ data: [row], skipDuplicates: true });
  const stored = await tx.evidenceFragment.findFirst({
    where: { tenantId: row.tenantId, runId: row.runId, snapshotId: row.snapshotId, start: row.start, end: row.end },
    select: { id: true },
  });
  return stored!.id;
}

import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../prisma.service';

/** A claim to insert, with the evidence it cites. */
export type NewClaim = Omit<Prisma.ClaimCreateManyInput, 'id'> & { evidenceIds: readonly string[] };

/**
 * New claims with their evidence, in two statements whatever their number (a claims step writes a hundred: one
 * statement each held the run's lock for a hundred round trips). Ids are made here so the links need no read back;
 * the rows go in in the order given.
 */
export async function insertClaims(tx: Db, rows: readonly NewClaim[]): Promise<void> {
  const withIds = rows.map(({ evidenceIds, ...row }) => ({ row: { ...row, id: randomUUID() }, evidenceIds }));
  if (withIds.length > 0) await tx.claim.createMany({ data: withIds.map((r) => r.row) });
  await linkClaimsEvidence(
    tx,
    withIds.map((r) => ({ claimId: r.row.id, evidenceIds: r.evidenceIds })),
  );
}

/** Links claims to evidence in one statement (links that exist are kept). */
export async function linkClaimsEvidence(tx: Db, links: readonly { claimId: string; evidenceIds: readonly string[] }[]): Promise<void> {
  const data = links.flatMap(({ claimId, evidenceIds }) => evidenceIds.map((evidenceId) => ({ claimId, evidenceId })));
  if (data.length > 0) await tx.claimEvidence.createMany({ data, skipDuplicates: true });
}

/** Sets the status of the run's claims `ids` (rescored on new evidence; contested by a contradiction). */
export async function setClaimStatus(tx: Db, tenantId: string, runId: string, ids: string[], status: string): Promise<void> {
  await tx.claim.updateMany({ where: { tenantId, runId, id: { in: ids } }, data: { status } });
}

/** Which of `ids` are claims of the run. */
export async function claimIdsOfRun(db: Db, tenantId: string, runId: string, ids: string[]): Promise<Set<string>> {
  return new Set((await db.claim.findMany({ where: { tenantId, runId, id: { in: ids } }, select: { id: true } })).map((c) => c.id));
}

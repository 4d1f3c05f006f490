import type { Db, Prisma } from '../prisma.service';

/** A new claim; returns its id. */
export async function insertClaim(tx: Db, row: Prisma.ClaimUncheckedCreateInput): Promise<string> {
  return (await tx.claim.create({ data: row })).id;
}

/** Links a claim to evidence (links it has already are kept). */
export async function linkClaimEvidence(tx: Db, claimId: string, evidenceIds: string[]): Promise<void> {
  await tx.claimEvidence.createMany({ data: evidenceIds.map((evidenceId) => ({ claimId, evidenceId })), skipDuplicates: true });
}

/** Sets the status of the run's claims `ids` (rescored on new evidence; contested by a contradiction). */
export async function setClaimStatus(tx: Db, tenantId: string, runId: string, ids: string[], status: string): Promise<void> {
  await tx.claim.updateMany({ where: { tenantId, runId, id: { in: ids } }, data: { status } });
}

/** Which of `ids` are claims of the run. */
export async function claimIdsOfRun(db: Db, tenantId: string, runId: string, ids: string[]): Promise<Set<string>> {
  return new Set((await db.claim.findMany({ where: { tenantId, runId, id: { in: ids } }, select: { id: true } })).map((c) => c.id));
}

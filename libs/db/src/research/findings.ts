import type { Db, Prisma } from '../prisma.service';
import type { FindingRow } from '../repositories/research.repository';

/** Verification findings of a round; a finding the round has already is kept. */
export async function insertFindings(tx: Db, rows: Prisma.VerificationFindingCreateManyInput[]): Promise<void> {
  await tx.verificationFinding.createMany({ data: rows, skipDuplicates: true });
}

/** The run's last verification round (0 when nothing was verified). */
export async function lastVerifyRound(db: Db, tenantId: string, runId: string): Promise<number> {
  const last = await db.verificationFinding.findFirst({ where: { tenantId, runId }, orderBy: { round: 'desc' }, select: { round: true } });
  return last?.round ?? 0;
}

/** A round's findings of every section but `except`. */
export function findingsExcept(db: Db, tenantId: string, runId: string, round: number, except: string[]): Promise<FindingRow[]> {
  return db.verificationFinding.findMany({ where: { tenantId, runId, round, sectionId: { notIn: except } } });
}

import type { Db, Prisma } from '../prisma.service';

/** A report frame revision; one the revision has already is kept. */
export async function insertFrame(tx: Db, row: Prisma.ReportFrameCreateManyInput): Promise<void> {
  await tx.reportFrame.createMany({ data: [row], skipDuplicates: true });
}

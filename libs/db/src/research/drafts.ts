import type { Db, Prisma } from '../prisma.service';

/** Section drafts of a round; a draft the round has already is kept. */
export async function insertDrafts(tx: Db, rows: Prisma.SectionDraftCreateManyInput[]): Promise<void> {
  await tx.sectionDraft.createMany({ data: rows, skipDuplicates: true });
}

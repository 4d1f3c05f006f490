import type { Db } from '../prisma.service';

export interface OutlineSectionInput {
  title: string;
  purpose: string;
  claimIds: string[];
}

/** An outline revision's sections, positioned in the order given (the outline step, and a reviewer's edit of it). */
export async function insertOutline(
  tx: Db,
  tenantId: string,
  runId: string,
  revision: number,
  sections: OutlineSectionInput[],
): Promise<void> {
  await tx.outlineSection.createMany({
    data: sections.map((s, position) => ({
      tenantId,
      runId,
      revision,
      position,
      title: s.title,
      purpose: s.purpose,
      claimIds: s.claimIds,
    })),
  });
}

/** Removes an outline revision's sections (a reviewer's edit replaces them). */
export async function deleteOutline(tx: Db, tenantId: string, runId: string, revision: number): Promise<void> {
  await tx.outlineSection.deleteMany({ where: { tenantId, runId, revision } });
}

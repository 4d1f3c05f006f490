import type { ResearchRepository, OutlineSectionRow } from '@dossier/db';
import { StageStateError } from '@dossier/errors';

/** The section at `position` of the approved outline, its claims and their evidence, in outline order. */
export async function sectionInputs(research: ResearchRepository, tenantId: string, runId: string, position: number) {
  const outline = await research.latestOutline(tenantId, runId);
  const section: OutlineSectionRow | undefined = outline[position];
  if (!section) throw new StageStateError(`The outline has no section ${position}`, { runId });
  const wanted = section.claimIds as string[];
  const claims = (await research.claims(tenantId, runId, { id: { in: wanted } })).sort(
    (a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id),
  );
  const evidence = await research.evidence(tenantId, runId, { id: { in: claims.flatMap((c) => c.evidenceIds) } });
  return { section, claims, evidence };
}

export interface DraftSentence {
  text: string;
  evidenceIds: string[];
  /** Rewritten by the repairer after failing verification (counted in the report's verification figures). */
  repaired?: boolean;
}
export type DraftParagraphs = { sentences: DraftSentence[] }[];

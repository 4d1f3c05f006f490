import type { Db } from '../prisma.service';
import type { ResearchRepository } from '../repositories/research.repository';
import { verificationFigures, type RunVerificationFigures } from './verification-figures';

/** What a person reads before publishing (the publish gate): the finished report in brief, and what verification did. */
export interface PublishPreview {
  introduction: string[];
  sections: { title: string; sentences: number; opening: string | null }[];
  disagreements: number;
  conclusion: string[];
  /** Before the report is rendered: its sentences are in `sections` (decision 0086). */
  verification: Omit<RunVerificationFigures, 'sentences' | 'supported'>;
}

export async function publishPreview(db: Db, research: ResearchRepository, tenantId: string, runId: string): Promise<PublishPreview> {
  const [sections, frame, figures] = await Promise.all([
    research.verifiedSections(tenantId, runId, db),
    research.latestFrame(tenantId, runId, db),
    verificationFigures(db, tenantId, runId),
  ]);
  const texts = (value: unknown) => ((value ?? []) as { text: string }[]).map((s) => s.text);
  return {
    introduction: texts(frame?.introduction),
    sections: sections.map((s) => {
      const sentences = s.paragraphs.flatMap((p) => p.sentences);
      return { title: s.title, sentences: sentences.length, opening: sentences[0]?.text ?? null };
    }),
    disagreements: ((frame?.disagreements ?? []) as unknown[]).length,
    conclusion: texts(frame?.conclusion),
    verification: checksOnly(figures),
  };
}

/** The figures of the checks; the report's sentences are counted once it is rendered. */
function checksOnly(f: RunVerificationFigures): PublishPreview['verification'] {
  const { checked, failedByGuard, failedByJudge, repaired, removed, judgedByModel, judgedOffline, guardOnly, rounds } = f;
  return { checked, failedByGuard, failedByJudge, repaired, removed, judgedByModel, judgedOffline, guardOnly, rounds };
}

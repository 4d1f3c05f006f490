import type { Db } from '../prisma.service';
import type { ResearchRepository } from '../repositories/research.repository';
import { verificationFigures, type RunVerificationFigures } from './verification-figures';

/** What a person reads before publishing (the publish gate): the finished report in brief, and what verification did. */
export interface PublishPreview {
  introduction: string[];
  sections: { title: string; sentences: number; opening: string | null }[];
  disagreements: number;
  conclusion: string[];
  verification: RunVerificationFigures;
}

export async function publishPreview(db: Db, research: ResearchRepository, tenantId: string, runId: string): Promise<PublishPreview> {
  const [sections, frame, verification] = await Promise.all([
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
    verification,
  };
}

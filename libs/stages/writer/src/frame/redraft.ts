import { Injectable } from '@nestjs/common';
import { AgentRunner, NO_FIGURES, sectionWriter, verifyAndRepair, type VerificationFigures } from '@dossier/agents';
import {
  findingsExcept,
  insertDrafts,
  insertFindings,
  lastVerifyRound,
  PrismaService,
  ResearchRepository,
  type Db,
  type Prisma,
  type VerifiedSection,
} from '@dossier/db';
import type { StepContext } from '@dossier/workflow';
import { sectionInputs, type DraftParagraphs } from '../section-inputs';
import { sectionsNamedIn } from './named-sections';

/** The sections a publish-gate feedback named, drafted again with it and verified, ready to be written with the frame. */
export interface Redraft {
  positions: number[];
  /** The verification round the new drafts (and every section's findings) are written at. */
  round: number;
  /** The new sections by id, as the frame reads them. */
  sections: Map<string, VerifiedSection>;
  figures: VerificationFigures;
  write(tx: Db): Promise<void>;
}

/**
 * Publish-gate feedback that names sections: each is drafted again by the Section Writer with the feedback, then its
 * sentences are verified and repaired like the body's (decision 0020). The result is a new verification round: the
 * redrafted sections' drafts with only their verified sentences, and for every other section its findings of the
 * round before, carried over, so the report body reads the same round for all sections.
 */
@Injectable()
export class Redrafter {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly prisma: PrismaService,
  ) {}

  async redraft(ctx: StepContext<'frame'>, feedback: string): Promise<Redraft | null> {
    const { tenantId, id: runId } = ctx.run;
    const call = { tenantId, runId, stepKey: ctx.stepKey };
    const outline = await this.research.latestOutline(tenantId, runId);
    const positions = sectionsNamedIn(
      feedback,
      outline.map((s) => s.title),
    );
    if (positions.length === 0) return null;
    const previous = await lastVerifyRound(this.prisma, tenantId, runId);
    const round = previous + 1;
    const figures: VerificationFigures = { ...NO_FIGURES };
    const drafts: { sectionId: string; paragraphs: DraftParagraphs }[] = [];
    const sections = new Map<string, VerifiedSection>();
    for (const position of positions) {
      const { section, claims, evidence, contested, voiceOf } = await sectionInputs(this.research, tenantId, runId, position);
      const written = await this.agents.run(
        sectionWriter,
        {
          section: { title: section.title, purpose: section.purpose },
          claims: claims.map((c) => ({ id: c.id, statement: c.statement, evidenceIds: c.evidenceIds })),
          evidence: evidence.map((e) => {
            const voice = voiceOf(e.snapshotId);
            return { id: e.id, excerpt: e.excerpt, sourceId: e.snapshotId, start: e.start, ...(voice ? { voice } : {}) };
          }),
          feedback,
          ...(contested.length > 0 ? { contested } : {}),
        },
        call,
      );
      const excerpts = new Map(evidence.map((e) => [e.id, e.excerpt]));
      const flat = written.paragraphs.flatMap((p, pi) => p.sentences.map((s) => ({ ...s, pi })));
      const verified = await verifyAndRepair(
        this.agents,
        flat.map((s) => ({
          text: s.text,
          evidenceIds: s.evidenceIds,
          evidence: s.evidenceIds.flatMap((id) => (excerpts.has(id) ? [{ id, excerpt: excerpts.get(id)! }] : [])),
          extraEvidence: evidence.map((e) => ({ id: e.id, excerpt: e.excerpt })),
        })),
        ctx.run.options.maxRepairRounds,
        call,
      );
      for (const k of Object.keys(figures) as (keyof VerificationFigures)[]) figures[k] += verified.figures[k];
      const paragraphs: DraftParagraphs = [];
      flat.forEach((s, i) => {
        const kept = verified.kept[i];
        if (!kept) return;
        (paragraphs[s.pi] ??= { sentences: [] }).sentences.push({
          text: kept.text,
          evidenceIds: kept.evidenceIds,
          ...(kept.repaired ? { repaired: true } : {}),
        });
      });
      const compact = paragraphs.filter((p) => p && p.sentences.length > 0);
      drafts.push({ sectionId: section.id, paragraphs: compact });
      sections.set(section.id, { sectionId: section.id, title: section.title, paragraphs: compact });
    }
    const redrafted = new Set(drafts.map((d) => d.sectionId));
    const carried = await findingsExcept(this.prisma, tenantId, runId, previous, [...redrafted]);
    return {
      positions,
      round,
      sections,
      figures,
      write: async (tx) => {
        await insertDrafts(
          tx,
          drafts.map((d) => ({
            tenantId,
            runId,
            sectionId: d.sectionId,
            round,
            paragraphs: d.paragraphs as unknown as Prisma.InputJsonValue,
          })),
        );
        await insertFindings(tx, [
          ...drafts.flatMap((d) =>
            d.paragraphs.flatMap((p, pi) =>
              p.sentences.map((s, si) => ({
                tenantId,
                runId,
                sectionId: d.sectionId,
                round,
                paragraph: pi,
                sentence: si,
                verdict: 'supported',
                score: 1,
                note: 'verified in the frame step (publish-gate redraft)',
                checks: { text: s.text, carried: true, redraft: true },
              })),
            ),
          ),
          ...carried.map((f) => ({
            tenantId,
            runId,
            sectionId: f.sectionId,
            round,
            paragraph: f.paragraph,
            sentence: f.sentence,
            verdict: f.verdict,
            score: f.score,
            note: f.note,
            checks: { ...((f.checks as Record<string, unknown> | null) ?? {}), carried: true } as Prisma.InputJsonValue,
          })),
        ]);
      },
    };
  }
}

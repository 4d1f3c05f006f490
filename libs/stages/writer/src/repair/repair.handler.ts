import { AgentRunner, repairer } from '@dossier/agents';
import { ResearchRepository, type Prisma } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { sectionInputs, type DraftParagraphs, type DraftSentence } from '../section-inputs';

/** Evidence of the section beyond what a failing sentence cites that the repairer may use (the wrong-citation fix). */
const EXTRA_EVIDENCE = 8;

/**
 * Repairer: every sentence that failed verification in round k (the guard's or the judge's finding goes with it) is
 * rewritten from its evidence and the rest of its section's, or dropped; the result is the section's draft for round
 * k+1, verified again by the next round. A rewrite is marked `repaired`, so the report can count it.
 */
@OnStep('repair')
export class RepairHandler implements StepHandler<'repair'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'repair'>): Promise<StepOutcome<'repair'>> {
    const { tenantId, runId } = ctx;
    const round = ctx.job.iteration;
    const drafts: { sectionId: string; paragraphs: DraftParagraphs }[] = [];
    let repaired = 0;
    let dropped = 0;
    // Sections, and the failing sentences of each, are repaired independently: every repairer call of the step goes
    // out together (the step waits for the slowest, not the sum; decision 0036), and results are taken in order.
    const sections = await Promise.all(
      (await this.research.latestOutline(tenantId, runId)).map(async (section) => {
        const draft = await this.research.latestDraft(tenantId, section.id, round);
        if (!draft) return null;
        const findings = await this.research.findings(tenantId, section.id, round);
        const failing = new Map(findings.filter((f) => f.verdict !== 'supported').map((f) => [`${f.paragraph}.${f.sentence}`, f]));
        if (failing.size === 0) return null;
        const paragraphs = draft.paragraphs as unknown as DraftParagraphs;
        const { evidence: sectionEvidence } = await sectionInputs(this.research, tenantId, runId, section.position);
        const cited = await this.research.evidence(tenantId, runId, {
          id: { in: paragraphs.flatMap((p) => p.sentences.flatMap((s) => s.evidenceIds)) },
        });
        const byId = new Map([...sectionEvidence, ...cited].map((e) => [e.id, { id: e.id, excerpt: e.excerpt }]));
        const fixed = await Promise.all(
          paragraphs.map((p, pi) =>
            Promise.all(
              p.sentences.map(async (s, si): Promise<{ sentence: DraftSentence; fixed: boolean } | null> => {
                const finding = failing.get(`${pi}.${si}`);
                if (!finding) return { sentence: s, fixed: false };
                const own = s.evidenceIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
                const more = sectionEvidence
                  .filter((e) => !s.evidenceIds.includes(e.id))
                  .slice(0, EXTRA_EVIDENCE)
                  .map((e) => byId.get(e.id)!);
                const fix = await this.agents.run(
                  repairer,
                  {
                    sentence: { text: s.text, evidenceIds: s.evidenceIds },
                    evidence: [...own, ...more],
                    finding: { verdict: finding.verdict as 'unsupported', note: finding.note },
                  },
                  ctx.call,
                );
                return fix.action === 'rewrite'
                  ? { sentence: { text: fix.text, evidenceIds: fix.evidenceIds, repaired: true }, fixed: true }
                  : null;
              }),
            ),
          ),
        );
        return { sectionId: section.id, fixed };
      }),
    );
    for (const section of sections) {
      if (!section) continue;
      const next: DraftParagraphs = [];
      for (const p of section.fixed) {
        const kept = p.filter((s) => s !== null);
        repaired += kept.filter((s) => s.fixed).length;
        dropped += p.length - kept.length;
        const sentences = kept.map((s) => s.sentence);
        if (sentences.length > 0) next.push({ sentences });
      }
      drafts.push({ sectionId: section.sectionId, paragraphs: next });
    }
    return {
      result: { repaired, dropped },
      write: async (tx) => {
        await tx.sectionDraft.createMany({
          data: drafts.map((d) => ({
            tenantId,
            runId,
            sectionId: d.sectionId,
            round: round + 1,
            paragraphs: d.paragraphs as unknown as Prisma.InputJsonValue,
          })),
          skipDuplicates: true,
        });
      },
    };
  }
}

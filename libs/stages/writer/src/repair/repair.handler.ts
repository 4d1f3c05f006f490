import { AgentRunner, repairer } from '@dossier/agents';
import { insertDrafts, ResearchRepository, type Prisma } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { sectionMaterial, type DraftParagraphs, type DraftSentence } from '../section-inputs';

/** Evidence of the section beyond what the failing sentences cite that the repairer may use (the wrong-citation fix), plus one per sentence. */
const EXTRA_EVIDENCE = 8;

/**
 * Repairer: every sentence that failed verification in round k (the guard's or the judge's finding goes with it) is
 * rewritten from its evidence and more of its section's, or dropped (one call per section); the result is the section's draft for round
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
    // One repairer call per section with all its failing sentences, their evidence listed once; the sections' calls go
    // out together (the step waits for the slowest, not the sum; decision 0036), and results are taken in order.
    const sections = await Promise.all(
      (await this.research.latestOutline(tenantId, runId)).map(async (section) => {
        const draft = await this.research.latestDraft(tenantId, section.id, round);
        if (!draft) return null;
        const findings = await this.research.findings(tenantId, section.id, round);
        const failing = new Map(findings.filter((f) => f.verdict !== 'supported').map((f) => [`${f.paragraph}.${f.sentence}`, f]));
        if (failing.size === 0) return null;
        const paragraphs = draft.paragraphs as unknown as DraftParagraphs;
        // Only the section's evidence: the run's contested positions are the writer's, not the repairer's.
        const { evidence: sectionEvidence } = await sectionMaterial(this.research, tenantId, runId, section.position);
        const cited = await this.research.evidence(tenantId, runId, {
          id: { in: paragraphs.flatMap((p) => p.sentences.flatMap((s) => s.evidenceIds)) },
        });
        const byId = new Map([...sectionEvidence, ...cited].map((e) => [e.id, { id: e.id, excerpt: e.excerpt }]));
        const positions = paragraphs.flatMap((p, pi) =>
          p.sentences.flatMap((s, si) => (failing.has(`${pi}.${si}`) ? [{ pi, si, s }] : [])),
        );
        // The evidence the failing sentences cite, and more of the section's for rewrites: each excerpt listed once.
        const ids = [
          ...positions.flatMap(({ s }) => s.evidenceIds),
          ...sectionEvidence.map((e) => e.id).slice(0, EXTRA_EVIDENCE + positions.length),
        ];
        const evidence = [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
        const { fixes } = await this.agents.run(
          repairer,
          {
            sentences: positions.map(({ pi, si, s }) => {
              const finding = failing.get(`${pi}.${si}`)!;
              return {
                text: s.text,
                evidenceIds: s.evidenceIds,
                finding: { verdict: finding.verdict as 'unsupported', note: finding.note },
              };
            }),
            evidence,
          },
          ctx.call,
        );
        const fixOf = new Map(positions.map(({ pi, si }, k) => [`${pi}.${si}`, fixes[k]]));
        const fixed = paragraphs.map((p, pi) =>
          p.sentences.map((s, si): { sentence: DraftSentence; fixed: boolean } | null => {
            if (!failing.has(`${pi}.${si}`)) return { sentence: s, fixed: false };
            const fix = fixOf.get(`${pi}.${si}`);
            return fix?.action === 'rewrite'
              ? { sentence: { text: fix.text, evidenceIds: fix.evidenceIds, repaired: true }, fixed: true }
              : null;
          }),
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
        await insertDrafts(
          tx,
          drafts.map((d) => ({
            tenantId,
            runId,
            sectionId: d.sectionId,
            round: round + 1,
            paragraphs: d.paragraphs as unknown as Prisma.InputJsonValue,
          })),
        );
      },
    };
  }
}

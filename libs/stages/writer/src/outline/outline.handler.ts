import { AgentRunner, outlineArchitect } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { contestedClaimIds } from '../frame/disagreements';

export const CLAIMS_PER_SECTION = 12;

/** Outline Architect: sections with the claims each must use (one revision per outline-gate round). */
@OnStep('outline')
export class OutlineHandler implements StepHandler<'outline'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'outline'>): Promise<StepOutcome<'outline'>> {
    const { tenantId, runId } = ctx;
    const [questions, allClaims, evidence, contradictions] = await Promise.all([
      this.research.questions(tenantId, runId),
      this.research.claims(tenantId, runId),
      this.research.evidence(tenantId, runId),
      this.research.contradictions(tenantId, runId),
    ]);
    // Both sides of a contradiction (and their restatements) are presented together in "Where the sources
    // disagree", never as two findings side by side in the body.
    const contested = contestedClaimIds(contradictions, allClaims);
    const claims = allClaims.filter((c) => !contested.has(c.id));
    // Sections answer the plan's questions; a follow-up the research loop asked counts for the question it follows up.
    const parentOf = new Map(questions.map((q) => [q.id, q.parentId]));
    const rootOf = (id: string | null): string | null => {
      const seen = new Set<string>();
      let at = id;
      while (at && parentOf.get(at) && !seen.has(at)) {
        seen.add(at);
        at = parentOf.get(at) ?? null;
      }
      return at;
    };
    const questionOf = new Map(evidence.map((e) => [e.id, rootOf(e.questionId)]));
    const out = await this.agents.run(
      outlineArchitect,
      {
        question: ctx.run.question,
        questions: questions.filter((q) => q.parentId === null).map((q) => ({ id: q.id, text: q.text })),
        claims: claims.map((c) => ({
          id: c.id,
          statement: c.statement,
          questionId: c.evidenceIds.map((e) => questionOf.get(e)).find((q) => q) ?? null,
        })),
        feedback: await ctx.rejectionFeedback(),
      },
      ctx.call,
    );
    const revision = ctx.job.iteration;
    // A section uses its best-supported claims (most evidence first, then the outline's order), at most
    // CLAIMS_PER_SECTION, so one broad topic cannot swallow the report.
    const evidenceCount = new Map(claims.map((c) => [c.id, c.evidenceIds.length]));
    const sections = out.sections.map((s) => ({
      ...s,
      claimIds: s.claimIds
        .map((id, i) => ({ id, i }))
        .sort((a, b) => (evidenceCount.get(b.id) ?? 0) - (evidenceCount.get(a.id) ?? 0) || a.i - b.i)
        .slice(0, CLAIMS_PER_SECTION)
        .sort((a, b) => a.i - b.i)
        .map((x) => x.id),
    }));
    return {
      result: { sections: sections.length },
      write: async (tx) => {
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
      },
    };
  }
}

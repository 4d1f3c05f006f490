import { AgentRunner, outlineArchitect } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep } from '@dossier/queue';
import type { StepContext, StepHandler, StepOutcome } from '@dossier/workflow';

/** Outline Architect: sections with the claims each must use (one revision per outline-gate round). */
@OnStep('outline')
export class OutlineHandler implements StepHandler<'outline'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'outline'>): Promise<StepOutcome<'outline'>> {
    const { tenantId, id: runId } = ctx.run;
    const [questions, claims, evidence] = await Promise.all([
      this.research.questions(tenantId, runId),
      this.research.claims(tenantId, runId),
      this.research.evidence(tenantId, runId),
    ]);
    const questionOf = new Map(evidence.map((e) => [e.id, e.questionId]));
    const out = await this.agents.run(
      outlineArchitect,
      {
        question: ctx.run.question,
        questions: questions.map((q) => ({ id: q.id, text: q.text })),
        claims: claims.map((c) => ({ id: c.id, statement: c.statement, questionId: c.evidenceIds.map((e) => questionOf.get(e)).find((q) => q) ?? null })),
        feedback: await ctx.rejectionFeedback(),
      },
      { tenantId, runId, stepKey: ctx.stepKey },
    );
    const revision = ctx.job.iteration;
    return {
      result: { sections: out.sections.length },
      write: async (tx) => {
        await tx.outlineSection.createMany({
          data: out.sections.map((s, position) => ({ tenantId, runId, revision, position, title: s.title, purpose: s.purpose, claimIds: s.claimIds })),
        });
      },
    };
  }
}

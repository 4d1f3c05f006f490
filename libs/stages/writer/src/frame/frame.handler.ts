import { AgentRunner, framer } from '@dossier/agents';
import { InterventionRepository, ResearchRepository, RunRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/** Framer: introduction and conclusion, written from the verified sections only. */
@OnStep('frame')
export class FrameHandler implements StepHandler<'frame'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly runs: RunRepository,
    private readonly interventions: InterventionRepository,
  ) {}

  async execute(ctx: StepContext<'frame'>): Promise<StepOutcome<'frame'>> {
    const { tenantId, runId } = ctx;
    const [sections, open, run, rules] = await Promise.all([
      this.research.verifiedSections(tenantId, runId),
      this.research.questions(tenantId, runId, undefined, ['open', 'partial']),
      this.runs.find(tenantId, runId),
      this.interventions.appliedRules(tenantId, runId),
    ]);
    const out = await this.agents.run(
      framer,
      {
        question: ctx.run.question,
        sections: sections.map((s) => ({ title: s.title, sentences: s.paragraphs.flatMap((p) => p.sentences) })),
        stopReason: run?.stopReason ?? 'research complete',
        openQuestions: open.map((q) => q.text),
        ...(rules.scopes.length > 0 ? { scope: rules.scopes } : {}),
      },
      ctx.call,
    );
    const revision = ctx.job.iteration;
    return {
      result: { sections: sections.length },
      write: async (tx) => {
        await tx.reportFrame.createMany({
          data: [{ tenantId, runId, revision, introduction: out.introduction, conclusion: out.conclusion }],
          skipDuplicates: true,
        });
      },
    };
  }
}

import { AgentRunner, perspectivePlanner } from '@dossier/agents';
import { insertPerspectives, ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/**
 * Perspective Planner: analyst personas. The iteration is the plan revision; a revision after a rejected
 * plan gate is shaped by the reviewer's feedback.
 */
@OnStep('perspectives')
export class PerspectivesHandler implements StepHandler<'perspectives'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'perspectives'>): Promise<StepOutcome<'perspectives'>> {
    const { tenantId, runId } = ctx;
    const objective = await this.research.objective(tenantId, runId);
    const feedback = await ctx.rejectionFeedback();
    const out = await this.agents.run(
      perspectivePlanner,
      {
        question: ctx.run.question,
        objective: {
          statement: objective?.statement ?? ctx.run.question,
          includedTopics: (objective?.includedTopics as string[] | undefined) ?? [],
        },
        count: ctx.run.options.perspectives,
        feedback,
      },
      ctx.call,
    );
    const revision = ctx.job.iteration;
    return {
      result: { perspectives: out.perspectives.length },
      write: async (tx) => {
        await insertPerspectives(
          tx,
          out.perspectives.map((p) => ({ tenantId, runId, revision, ...p })),
        );
      },
    };
  }
}

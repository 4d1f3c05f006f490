import { AgentRunner, moderator } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep } from '@dossier/queue';
import type { StepContext, StepHandler, StepOutcome } from '@dossier/workflow';

export const MAX_FOLLOW_UPS = 4;

/**
 * Research Moderator at the loop boundary: follow-up questions for the gaps, and the signals the router
 * uses to stop research (information gain of this iteration, questions left to ask).
 */
@OnStep('moderate')
export class ModerateHandler implements StepHandler<'moderate'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'moderate'>): Promise<StepOutcome<'moderate'>> {
    const { tenantId, id: runId } = ctx.run;
    const iteration = ctx.job.iteration;
    const [questions, coverage] = await Promise.all([this.research.questions(tenantId, runId), this.research.coverage(tenantId, runId, iteration)]);
    const scores = new Map(coverage.map((c) => [c.questionId, c.score]));
    const out = await this.agents.run(
      moderator,
      {
        question: ctx.run.question,
        coverage: questions.map((q) => ({ questionId: q.id, text: q.text, score: scores.get(q.id) ?? 0 })),
        iteration,
        maxFollowUps: MAX_FOLLOW_UPS,
      },
      { tenantId, runId, stepKey: ctx.stepKey },
    );
    const gain = coverage.length === 0 ? 0 : coverage.reduce((s, c) => s + c.informationGain, 0) / coverage.length;
    const existing = new Set(questions.map((q) => q.text.toLowerCase()));
    const followUps = out.followUps.filter((f) => !existing.has(f.text.toLowerCase()));
    return {
      result: { informationGain: Math.min(1, Math.max(0, gain)), openQuestions: followUps.length },
      write: async (tx) => {
        await tx.researchQuestion.createMany({
          data: followUps.map((f) => ({ tenantId, runId, parentId: f.parentId, iteration: iteration + 1, text: f.text, priority: f.priority, status: 'open' })),
        });
      },
    };
  }
}

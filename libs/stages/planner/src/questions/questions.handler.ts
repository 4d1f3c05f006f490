import { AgentRunner, questionArchitect } from '@dossier/agents';
import { dropPlanQuestions, insertQuestions, ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/** Question Architect: the research questions of this plan revision (earlier revisions' are dropped); none in interviews mode. */
@OnStep('questions')
export class QuestionsHandler implements StepHandler<'questions'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'questions'>): Promise<StepOutcome<'questions'>> {
    const { tenantId, runId } = ctx;
    const revision = ctx.job.iteration;
    // Interviews mode builds no question graph: each analyst's questions come from its interview (issue 14).
    if (ctx.run.options.mode === 'interviews') {
      return {
        result: { questions: 0 },
        write: async (tx) => {
          await dropPlanQuestions(tx, tenantId, runId);
        },
      };
    }
    const [objective, perspectives] = await Promise.all([
      this.research.objective(tenantId, runId),
      this.research.perspectives(tenantId, runId, revision),
    ]);
    const out = await this.agents.run(
      questionArchitect,
      {
        question: ctx.run.question,
        topics: (objective?.includedTopics as string[] | undefined) ?? [],
        perspectives: perspectives.map((p) => ({ id: p.id, name: p.name, focus: p.focus })),
        feedback: await ctx.rejectionFeedback('plan'),
      },
      ctx.call,
    );
    return {
      result: { questions: out.questions.length },
      write: async (tx) => {
        await dropPlanQuestions(tx, tenantId, runId);
        await insertQuestions(
          tx,
          out.questions.map((q) => ({
            tenantId,
            runId,
            perspectiveId: q.perspectiveId,
            iteration: 0,
            text: q.text,
            priority: q.priority,
            status: 'open',
          })),
        );
      },
    };
  }
}

import { AgentRunner, queryPlanner } from '@dossier/agents';
import { insertSearchPlans, InterventionRepository, ResearchRepository, setQuestionStatus } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/** Questions searched per iteration and queries planned per iteration: the frontier is bounded. */
export const FRONTIER_QUESTIONS = 6;
export const MAX_QUERIES = 8;

/** Query Planner: search queries for the frontier (open questions), one retrieve shard per query. */
@OnStep('search_plan')
export class SearchPlanHandler implements StepHandler<'search_plan'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly interventions: InterventionRepository,
  ) {}

  async execute(ctx: StepContext<'search_plan'>): Promise<StepOutcome<'search_plan'>> {
    const { tenantId, runId } = ctx;
    const iteration = ctx.job.iteration;
    const [open, rules] = await Promise.all([
      this.research.questions(tenantId, runId, undefined, ['open']),
      this.interventions.appliedRules(tenantId, runId),
    ]);
    const frontier = open.slice(0, FRONTIER_QUESTIONS);
    const out = await this.agents.run(
      queryPlanner,
      {
        question: ctx.run.question,
        questions: frontier.map((q) => ({ id: q.id, text: q.text, priority: q.priority })),
        iteration,
        providers: ctx.run.options.searchProviders,
        maxQueries: MAX_QUERIES,
        // A scope narrowed by an intervention holds for every later iteration.
        ...(rules.scopes.length > 0 ? { scope: rules.scopes } : {}),
      },
      ctx.call,
    );
    return {
      result: { queries: out.queries.length },
      write: async (tx) => {
        await insertSearchPlans(
          tx,
          out.queries.map((q, shard) => ({
            tenantId,
            runId,
            questionId: q.questionId,
            iteration,
            shard,
            query: q.query,
            provider: q.provider,
          })),
        );
        await setQuestionStatus(
          tx,
          tenantId,
          runId,
          frontier.map((q) => q.id),
          'partial',
          'open',
        );
      },
    };
  }
}

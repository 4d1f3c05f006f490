import { AgentRunner, coverageAssessor } from '@dossier/agents';
import { insertCoverage, ResearchRepository, setQuestionStatus } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/** A question whose coverage reaches this is answered and leaves the frontier. */
export const ANSWERED_AT = 0.5;

/** Coverage of every live question by the claims so far, and the information gain of this iteration. */
@OnStep('coverage')
export class CoverageHandler implements StepHandler<'coverage'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'coverage'>): Promise<StepOutcome<'coverage'>> {
    const { tenantId, runId } = ctx;
    const iteration = ctx.job.iteration;
    const [questions, claims, previous] = await Promise.all([
      this.research.questions(tenantId, runId),
      this.research.claims(tenantId, runId),
      iteration > 0 ? this.research.coverage(tenantId, runId, iteration - 1) : Promise.resolve([]),
    ]);
    const out = await this.agents.run(
      coverageAssessor,
      {
        questions: questions.map((q) => ({ id: q.id, text: q.text })),
        claims: claims.map((c) => ({ id: c.id, statement: c.statement })),
        previous: Object.fromEntries(previous.map((p) => [p.questionId, p.score])),
      },
      ctx.call,
    );
    const answered = out.coverage.filter((c) => c.score >= ANSWERED_AT).map((c) => c.questionId);
    return {
      result: { covered: answered.length, open: out.coverage.length - answered.length },
      write: async (tx) => {
        await insertCoverage(
          tx,
          out.coverage.map((c) => ({ tenantId, runId, questionId: c.questionId, iteration, score: c.score, informationGain: c.informationGain })),
        );
        if (answered.length > 0) await setQuestionStatus(tx, tenantId, runId, answered, 'answered');
      },
    };
  }
}

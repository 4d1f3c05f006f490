import { AgentRunner, director } from '@dossier/agents';
import { insertObjective } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/** Research Director: the objective and scope of the run (included/excluded topics, time frame, risk). */
@OnStep('scope')
export class ScopeHandler implements StepHandler<'scope'> {
  constructor(private readonly agents: AgentRunner) {}

  async execute(ctx: StepContext<'scope'>): Promise<StepOutcome<'scope'>> {
    const { tenantId, runId } = ctx;
    const scope = await this.agents.run(director, { question: ctx.run.question }, ctx.call);
    return {
      result: { topics: scope.includedTopics.length },
      write: async (tx) => {
        // One objective per run, the first one written: insert-if-absent in one statement, never a unique violation.
        await insertObjective(tx, {
          tenantId,
          runId,
          statement: scope.statement,
          includedTopics: scope.includedTopics,
          excludedTopics: scope.excludedTopics,
          timeFrame: scope.timeFrame,
          riskLevel: scope.riskLevel,
        });
      },
    };
  }
}

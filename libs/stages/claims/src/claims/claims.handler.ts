import { AgentRunner, claimBuilder } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { claimTargets } from './claim-targets';

/**
 * Claim Builder over this iteration's evidence: atomic claims, each citing its evidence. A new claim that
 * restates one of an earlier iteration, or repeats the statement of another of this iteration, is not added
 * again: its evidence joins that claim (claim-targets.ts).
 */
@OnStep('claims')
export class ClaimsHandler implements StepHandler<'claims'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'claims'>): Promise<StepOutcome<'claims'>> {
    const { tenantId, runId } = ctx;
    const iteration = ctx.job.iteration;
    const evidence = await this.research.evidence(tenantId, runId, { iteration });
    const out = await this.agents.run(
      claimBuilder,
      { evidence: evidence.map((e) => ({ id: e.id, excerpt: e.excerpt, statement: e.statement, questionId: e.questionId })) },
      ctx.call,
    );
    const existing = await this.research.claims(tenantId, runId, { iteration: { lt: iteration } });
    const plan = claimTargets(existing, out.claims);
    return {
      result: { claims: plan.filter(({ target }, i) => target.kind === 'new' && target.first === i).length },
      write: async (tx) => {
        const rowOf = new Map<number, string>();
        for (const [i, { claim, target }] of plan.entries()) {
          // A repeat finds its first claim's row here; the first claim of a statement creates it.
          let claimId = target.kind === 'existing' ? target.claimId : rowOf.get(target.first);
          if (claimId === undefined) {
            claimId = (
              await tx.claim.create({
                data: { tenantId, runId, iteration, statement: claim.statement, subject: claim.subject, status: claim.status },
              })
            ).id;
            rowOf.set(i, claimId);
          }
          await tx.claimEvidence.createMany({
            data: claim.evidenceIds.map((evidenceId) => ({ claimId, evidenceId })),
            skipDuplicates: true,
          });
        }
      },
    };
  }
}

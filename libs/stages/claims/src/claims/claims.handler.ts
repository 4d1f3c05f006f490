import { AgentRunner, claimBuilder, groupNearDuplicates } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

/**
 * Claim Builder over this iteration's evidence: atomic claims, each citing its evidence. A new claim that
 * restates one of an earlier iteration is not added again: its evidence joins the existing claim.
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
    const groups = groupNearDuplicates(
      [
        ...existing.map((c) => ({ id: `old:${c.id}`, text: c.statement })),
        ...out.claims.map((c, i) => ({ id: `new:${i}`, text: c.statement })),
      ],
      0.8,
    );
    const mergeInto = new Map<number, string>();
    for (const g of groups) {
      const old = g.find((id) => id.startsWith('old:'));
      if (!old) continue;
      for (const id of g) if (id.startsWith('new:')) mergeInto.set(Number(id.slice(4)), old.slice(4));
    }
    return {
      result: { claims: out.claims.length - mergeInto.size },
      write: async (tx) => {
        for (const [i, claim] of out.claims.entries()) {
          const target = mergeInto.get(i);
          const claimId =
            target ??
            (
              await tx.claim.create({
                data: { tenantId, runId, iteration, statement: claim.statement, subject: claim.subject, status: claim.status },
              })
            ).id;
          await tx.claimEvidence.createMany({
            data: claim.evidenceIds.map((evidenceId) => ({ claimId, evidenceId })),
            skipDuplicates: true,
          });
        }
      },
    };
  }
}

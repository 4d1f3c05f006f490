import { Inject } from '@nestjs/common';
import { AgentRunner, counterEvidence } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { EMBEDDER, VECTOR_STORE, pointId, type Embedder, type VectorStore } from '@dossier/vectors';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

export const CLAIM_COLLECTION = 'claims';
const NEIGHBOURS = 8;
const MIN_SIMILARITY = 0.25;

/**
 * Counter-Evidence Agent: candidate pairs come from vector search over the run's claims (the claims
 * that talk about the same thing), then each pair is judged; contradictions are stored once per pair.
 */
@OnStep('contradictions')
export class ContradictionsHandler implements StepHandler<'contradictions'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    @Inject(VECTOR_STORE) private readonly vectors: VectorStore,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
  ) {}

  async execute(ctx: StepContext<'contradictions'>): Promise<StepOutcome<'contradictions'>> {
    const { tenantId, runId } = ctx;
    const claims = await this.research.claims(tenantId, runId);
    const fresh = claims.filter((c) => c.iteration === ctx.job.iteration);
    await this.vectors.ensureCollection(CLAIM_COLLECTION, this.embedder.dimension);
    const vectors = await this.embedder.embed(claims.map((c) => c.statement));
    // Idempotent: the point id is derived from the claim id, so a re-run upserts the same points.
    await this.vectors.upsert(
      CLAIM_COLLECTION,
      claims.map((c, i) => ({
        id: pointId(`claim:${c.id}`),
        vector: vectors[i]!,
        payload: { tenantId, runId, kind: 'claim', claimId: c.id },
      })),
    );
    const statementOf = new Map(claims.map((c) => [c.id, c.statement]));
    const pairKey = ([a, b]: [string, string]) => `${statementOf.get(a)}\u0000${statementOf.get(b)}`;
    const byPoint = new Map(claims.map((c) => [pointId(`claim:${c.id}`), c]));
    const pairs = new Map<string, [string, string]>();
    for (const claim of fresh) {
      const hits = await this.vectors.search(CLAIM_COLLECTION, vectors[claims.indexOf(claim)]!, {
        filter: { tenantId, runId, kind: 'claim' },
        limit: NEIGHBOURS + 1,
        minScore: MIN_SIMILARITY,
      });
      for (const hit of hits) {
        const other = byPoint.get(hit.id);
        if (!other || other.id === claim.id) continue;
        const [a, b] = [claim, other].sort((x, y) => x.statement.localeCompare(y.statement) || x.id.localeCompare(y.id));
        pairs.set(`${a!.id}|${b!.id}`, [a!.id, b!.id]);
      }
    }
    const out = await this.agents.run(
      counterEvidence,
      {
        claims: claims.map((c) => ({ id: c.id, statement: c.statement })),
        // Ordered by the statements, not the random ids, so the same claims give the same output.
        candidatePairs: [...pairs.values()].sort((x, y) => pairKey(x).localeCompare(pairKey(y))),
      },
      ctx.call,
    );
    return {
      result: { contradictions: out.contradictions.length },
      write: async (tx) => {
        await tx.contradiction.createMany({
          data: out.contradictions.map((c) => ({
            tenantId,
            runId,
            claimAId: c.claimAId,
            claimBId: c.claimBId,
            kind: c.kind,
            note: c.note,
          })),
          skipDuplicates: true,
        });
        // A claim on one side of a contradiction is contested, whatever its evidence count.
        const contested = out.contradictions.flatMap((c) => [c.claimAId, c.claimBId]);
        if (contested.length > 0)
          await tx.claim.updateMany({ where: { tenantId, runId, id: { in: contested } }, data: { status: 'contested' } });
      },
    };
  }
}

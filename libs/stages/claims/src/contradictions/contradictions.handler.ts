import { Inject } from '@nestjs/common';
import { AgentRunner, counterEvidence, fromDistinctSources } from '@dossier/agents';
import { insertContradictions, ResearchRepository, setClaimStatus } from '@dossier/db';
import { VECTOR_STORE, type VectorStore } from '@dossier/vectors';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { collectionFor, RunEmbedder } from '../embeddings/run-embedder';
import { contradictionCandidates } from './contradiction-candidates';

/**
 * Counter-Evidence Agent: candidate pairs come from vector search over the run's claims and their evidence (the
 * claims and passages that talk about the same thing), then each pair is judged; contradictions are stored once per
 * pair. With no candidate pair the agent is not called.
 */
@OnStep('contradictions')
export class ContradictionsHandler implements StepHandler<'contradictions'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    @Inject(VECTOR_STORE) private readonly vectors: VectorStore,
    private readonly embedders: RunEmbedder,
  ) {}

  async execute(ctx: StepContext<'contradictions'>): Promise<StepOutcome<'contradictions'>> {
    const { tenantId, runId } = ctx;
    const claims = await this.research.claims(tenantId, runId);
    const fresh = new Set(claims.filter((c) => c.iteration === ctx.job.iteration).map((c) => c.id));
    const evidence = await this.research.evidence(tenantId, runId, {
      id: { in: [...new Set(claims.filter((c) => fresh.has(c.id)).flatMap((c) => c.evidenceIds))] },
    });
    // Every claim is stored again each time, so an embedder changed mid-run (decision 0043) needs nothing more here.
    const candidatePairs = await this.embedders.use(ctx, (embedder) =>
      contradictionCandidates(
        this.vectors,
        embedder,
        { claims: collectionFor('claims', embedder), evidence: collectionFor('evidence', embedder) },
        claims,
        fresh,
        new Map(evidence.map((e) => [e.id, e.excerpt])),
        { tenantId, runId },
      ),
    );
    // A contradiction is between sources (decision 0098): two claims of one document only are never judged, by
    // either engine.
    const sourcesOf = new Map(claims.map((c) => [c.id, c.sourceIds]));
    const betweenSources = candidatePairs.filter(([a, b]) => fromDistinctSources(sourcesOf.get(a) ?? [], sourcesOf.get(b) ?? []));
    // Only the claims the pairs name: the rest decide nothing, and every claim of the run outgrew an 8,192-token window
    // once a run's claims grew by a few (decision 0105).
    const paired = new Set(betweenSources.flat());
    const out = await this.agents.run(
      counterEvidence,
      {
        claims: claims.filter((c) => paired.has(c.id)).map((c) => ({ id: c.id, statement: c.statement })),
        candidatePairs: betweenSources,
      },
      ctx.call,
    );
    return {
      result: { contradictions: out.contradictions.length },
      write: async (tx) => {
        await insertContradictions(
          tx,
          out.contradictions.map((c) => ({
            tenantId,
            runId,
            claimAId: c.claimAId,
            claimBId: c.claimBId,
            kind: c.kind,
            note: c.note,
          })),
        );
        // A claim on one side of a contradiction is contested, whatever its evidence count.
        const contested = out.contradictions.flatMap((c) => [c.claimAId, c.claimBId]);
        if (contested.length > 0) await setClaimStatus(tx, tenantId, runId, contested, 'contested');
      },
    };
  }
}

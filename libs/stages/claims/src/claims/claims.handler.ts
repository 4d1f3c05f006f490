import { Inject } from '@nestjs/common';
import { AgentRunner, claimBuilder } from '@dossier/agents';
import {
  insertClaims,
  linkClaimsEvidence,
  ResearchRepository,
  setClaimStatus,
  type ClaimRow,
  type NewClaim,
  type EvidenceRow,
} from '@dossier/db';
import { VECTOR_STORE, type VectorStore } from '@dossier/vectors';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { collectionFor, RunEmbedder } from '../embeddings/run-embedder';
import { claimTargets } from './claim-targets';
import { groupDuplicateEvidence } from './evidence-duplicates';
import { independentSources, scoreStatus, type EvidenceSource } from './independent-sources';

/**
 * Claim Builder over this iteration's evidence. Evidence vectors are stored, and near-duplicate evidence from two
 * sources is merged before the builder sees it (one passage goes in; the claim cites every copy). A new claim that
 * restates an earlier one, or rests on a duplicate of its evidence, is not added again: its evidence joins the existing
 * claim; one that repeats the statement of another of this iteration joins that one (claim-targets.ts). Every claim touched is scored from its evidence: established only when independent sources agree (decision
 * 0020), so two excerpts of one page, or syndicated copies of one text, count once — and a merge re-scores.
 */
@OnStep('claims')
export class ClaimsHandler implements StepHandler<'claims'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    @Inject(VECTOR_STORE) private readonly vectors: VectorStore,
    private readonly embedders: RunEmbedder,
  ) {}

  async execute(ctx: StepContext<'claims'>): Promise<StepOutcome<'claims'>> {
    const { tenantId, runId } = ctx;
    const iteration = ctx.job.iteration;
    const [all, existing] = await Promise.all([
      this.research.evidence(tenantId, runId),
      this.research.claims(tenantId, runId, { iteration: { lt: iteration } }),
    ]);
    const fresh = all.filter((e) => e.iteration === iteration);
    const older = all.filter((e) => e.iteration < iteration);
    // A run that changed embedders (decision 0043) has none of its earlier evidence in the new collection: stored again.
    const leads = await this.embedders.use(ctx, (embedder, switched) =>
      groupDuplicateEvidence(this.vectors, collectionFor('evidence', embedder), embedder, fresh, older, { tenantId, runId }, switched),
    );
    const leadOf = (id: string) => leads.get(id) ?? id;
    const members = new Map<string, string[]>();
    for (const e of all) members.set(leadOf(e.id), [...(members.get(leadOf(e.id)) ?? []), e.id]);

    // The builder sees one passage per group; a copy of an older passage joins that passage's claims instead.
    const freshIds = new Set(fresh.map((e) => e.id));
    const shown = fresh.filter((e) => leadOf(e.id) === e.id);
    const sources = await this.sources(tenantId, runId, all);
    const out = await this.agents.run(
      claimBuilder,
      {
        evidence: shown.map((e) => ({
          id: e.id,
          excerpt: e.excerpt,
          statement: e.statement,
          questionId: e.questionId,
          sourceId: sources.get(e.id)?.cluster ?? e.snapshotId,
        })),
      },
      ctx.call,
    );
    const expand = (ids: readonly string[]) => [...new Set(ids.flatMap((id) => members.get(leadOf(id)) ?? [id]))];
    const built = out.claims.map((c) => ({ ...c, evidenceIds: expand(c.evidenceIds) }));

    // Merges into older claims (a restated statement), and repeats of a statement within this iteration.
    const plan = claimTargets(existing, built);
    const firstOf = (i: number) => {
      const t = plan[i]!.target;
      return t.kind === 'new' ? t.first : i;
    };
    const mergeInto = new Map<number, string>();
    plan.forEach(({ target }, i) => {
      if (target.kind === 'existing') mergeInto.set(i, target.claimId);
    });
    // A claim resting on a copy of an older claim's evidence joins that claim too; repeats follow their first.
    const olderClaimOf = (evidenceId: string) => existing.find((c) => c.evidenceIds.some((id) => leadOf(id) === leadOf(evidenceId)));
    built.forEach((c, i) => {
      if (mergeInto.has(i) || firstOf(i) !== i) return;
      const target = c.evidenceIds.map(olderClaimOf).find((x) => x);
      if (target) mergeInto.set(i, target.id);
    });
    built.forEach((_, i) => {
      const into = mergeInto.get(firstOf(i));
      if (into) mergeInto.set(i, into);
    });
    // The evidence of each new claim row: its own and that of its repeats.
    const rowEvidence = new Map<number, Set<string>>();
    built.forEach((c, i) => {
      if (mergeInto.has(i)) return;
      const first = firstOf(i);
      rowEvidence.set(first, new Set([...(rowEvidence.get(first) ?? []), ...c.evidenceIds]));
    });
    // Copies of older evidence that no new claim carries join the older claims citing their passage.
    const attached = new Map<string, Set<string>>();
    for (const e of fresh) {
      if (leadOf(e.id) === e.id || freshIds.has(leadOf(e.id))) continue;
      for (const c of existing.filter((x) => x.evidenceIds.some((id) => leadOf(id) === leadOf(e.id)))) {
        attached.set(c.id, new Set([...(attached.get(c.id) ?? []), e.id]));
      }
    }

    const status = (said: ClaimRow['status'], evidenceIds: readonly string[]) =>
      scoreStatus(said as Parameters<typeof scoreStatus>[0], independentSources(evidenceIds, sources));
    return {
      result: { claims: rowEvidence.size },
      write: async (tx) => {
        const grown = new Map<string, Set<string>>(attached);
        const rows: NewClaim[] = [];
        for (const [i, claim] of built.entries()) {
          const target = mergeInto.get(i);
          if (target) {
            grown.set(target, new Set([...(grown.get(target) ?? []), ...claim.evidenceIds]));
            continue;
          }
          if (firstOf(i) !== i) continue; // a repeat: written with its first
          const evidenceIds = [...(rowEvidence.get(i) ?? [])];
          rows.push({
            tenantId,
            runId,
            iteration,
            statement: claim.statement,
            subject: claim.subject,
            status: status(claim.status, evidenceIds),
            evidenceIds,
          });
        }
        await insertClaims(tx, rows);
        // An older claim that gained evidence is scored again on all of it: one statement for the links, one per new status.
        await linkClaimsEvidence(
          tx,
          [...grown].map(([claimId, added]) => ({ claimId, evidenceIds: [...added] })),
        );
        const rescored = new Map<string, string[]>();
        for (const [claimId, added] of grown) {
          const old = existing.find((c) => c.id === claimId)!;
          const now = status(old.status, [...new Set([...old.evidenceIds, ...added])]);
          if (now !== old.status) rescored.set(now, [...(rescored.get(now) ?? []), claimId]);
        }
        for (const [now, ids] of rescored) await setClaimStatus(tx, tenantId, runId, ids, now);
      },
    };
  }

  /** Each evidence item's independence cluster: that of the source record that selected its snapshot, else the snapshot. */
  private async sources(tenantId: string, runId: string, evidence: readonly EvidenceRow[]): Promise<Map<string, EvidenceSource>> {
    const records = await this.research.sourceRecords(tenantId, runId, {
      snapshotId: { in: [...new Set(evidence.map((e) => e.snapshotId))] },
    });
    const cluster = new Map<string, string>();
    // Selected records first: the sighting that was read carries the cluster the source policy decided.
    for (const r of [...records].sort((a, b) => Number(b.selected) - Number(a.selected))) {
      if (r.snapshotId && !cluster.has(r.snapshotId)) cluster.set(r.snapshotId, r.clusterKey ?? r.snapshotId);
    }
    return new Map(evidence.map((e) => [e.id, { id: e.id, excerpt: e.excerpt, cluster: cluster.get(e.snapshotId) ?? e.snapshotId }]));
  }
}

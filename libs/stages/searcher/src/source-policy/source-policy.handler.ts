import { groupNearDuplicates } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { OnStep } from '@dossier/queue';
import type { StepContext, StepHandler, StepOutcome } from '@dossier/workflow';
import { authorityOf, fuseRanks } from './source-ranking';

/** Sources read (extracted) per iteration. */
export const SOURCES_PER_ITERATION = 8;

/**
 * Source policy: de-duplicate the retrieved sources (same canonical URL, same content, or near-duplicate
 * content: syndicated copies count as one independent source), skip those read in earlier iterations,
 * rank by fused rank, classify authority, and pick the sources to extract, one extract shard each.
 */
@OnStep('source_policy')
export class SourcePolicyHandler implements StepHandler<'source_policy'> {
  constructor(private readonly research: ResearchRepository) {}

  async execute(ctx: StepContext<'source_policy'>): Promise<StepOutcome<'source_policy'>> {
    const { tenantId, id: runId } = ctx.run;
    const iteration = ctx.job.iteration;
    const all = await this.research.sourceRecords(tenantId, runId);
    const readBefore = new Set(all.filter((r) => r.selected && r.iteration < iteration).map((r) => r.snapshotId ?? r.canonicalUrl));
    const ranked = fuseRanks(all.filter((r) => r.iteration === iteration && r.snapshotId && !readBefore.has(r.snapshotId)));

    // Independence clusters: identical snapshots share an id; near-duplicate texts are grouped.
    const snapshots = new Map((await this.research.snapshots(tenantId, [...new Set(ranked.map((s) => s.records[0]!.snapshotId!))])).map((s) => [s.id, s]));
    const groups = groupNearDuplicates(
      ranked.map((s) => ({ id: s.canonicalUrl, text: snapshots.get(s.records[0]!.snapshotId!)?.text.slice(0, 4000) ?? '' })),
      0.6,
    );
    const clusterOf = new Map<string, string>();
    for (const g of groups) for (const url of g) clusterOf.set(url, g[0]!);
    const seenClusters = new Set<string>();
    const chosen = ranked.filter((s) => {
      const cluster = clusterOf.get(s.canonicalUrl) ?? s.canonicalUrl;
      if (seenClusters.has(cluster)) return false;
      seenClusters.add(cluster);
      return true;
    }).slice(0, SOURCES_PER_ITERATION);

    return {
      result: { sources: chosen.length },
      write: async (tx) => {
        for (const s of ranked) {
          const shard = chosen.indexOf(s);
          await tx.sourceRecord.updateMany({
            where: { tenantId, runId, iteration, canonicalUrl: s.canonicalUrl },
            data: {
              authority: authorityOf(s.canonicalUrl, s.records[0]!.title),
              clusterKey: clusterOf.get(s.canonicalUrl) ?? s.canonicalUrl,
              selected: false,
              extractShard: null,
            },
          });
          // One record of each chosen source carries the extract shard (the first, by rank).
          if (shard >= 0) await tx.sourceRecord.updateMany({ where: { tenantId, id: s.records[0]!.id }, data: { selected: true, extractShard: shard } });
        }
      },
    };
  }
}

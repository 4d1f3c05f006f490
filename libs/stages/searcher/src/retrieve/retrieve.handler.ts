import { insertSourceRecords, PrismaService, ResearchRepository, TenantRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { searchAll, SnapshotStore } from '@dossier/sources';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { SearchProviders } from '../providers/search-providers';

export const RESULTS_PER_QUERY = 8;

/**
 * One search query (one shard) against every provider of the run at once, merged and de-duplicated by
 * canonical URL. Every hit is recorded with its origin; corpus documents are snapshotted now, web pages
 * only when source policy selects them.
 */
@OnStep('retrieve')
export class RetrieveHandler implements StepHandler<'retrieve'> {
  private readonly snapshots = new SnapshotStore();

  constructor(
    private readonly prisma: PrismaService,
    private readonly research: ResearchRepository,
    private readonly providers: SearchProviders,
    private readonly tenants: TenantRepository,
  ) {}

  async execute(ctx: StepContext<'retrieve'>): Promise<StepOutcome<'retrieve'>> {
    const { tenantId, runId } = ctx;
    const { iteration, shard } = ctx.job;
    const plan = await this.research.searchPlan(tenantId, runId, iteration, shard);
    if (!plan) throw new StageStateError(`No search plan for retrieve shard ${shard} of iteration ${iteration}`, { runId });
    const tenantPolicy = (await this.tenants.find(tenantId))?.policy as { searchProviders?: string[] } | null;
    const { hits } = await searchAll(this.providers.forRun(ctx.run.options.searchProviders, runId, tenantPolicy?.searchProviders), {
      tenantId,
      query: plan.query,
      limit: RESULTS_PER_QUERY,
      ...(ctx.run.options.collection ? { collection: ctx.run.options.collection } : {}),
    });
    // Snapshots are stored now, each in a statement of its own, not in the step's transaction: runs of one
    // tenant store the same documents at the same time, and a transaction holding one snapshot's new row while
    // waiting for another's deadlocked against theirs (docs/decisions/0012). A snapshot is immutable and
    // keyed by its text, so one stored by an attempt that later fails is simply reused by the next.
    // All of the hits' documents at once (decision 0134): a statement or two for them all, not a dozen each in turn.
    const snapshots = await this.snapshots.fromDocuments(this.prisma, tenantId, [
      ...new Set(hits.flatMap((h) => (h.documentId ? [h.documentId] : []))),
    ]);
    const snapshotOf = new Map([...snapshots].map(([documentId, row]) => [documentId, row.id]));
    return {
      result: { results: hits.length },
      // One statement for every hit, in rank order.
      write: (tx) =>
        insertSourceRecords(
          tx,
          hits.map((hit) => ({
            tenantId,
            runId,
            searchPlanId: plan.id,
            iteration,
            url: hit.url,
            canonicalUrl: hit.canonicalUrl,
            title: hit.title,
            snippet: hit.snippet,
            origin: hit.origin,
            rank: hit.rank,
            snapshotId: hit.documentId ? snapshotOf.get(hit.documentId)! : null,
          })),
        ),
    };
  }
}

import { Index, type IndexConfig, type Table } from '@lancedb/lancedb';
import { createLogger, type Logger } from '@dossier/telemetry';
import { retryOnCommitConflict } from './lance-errors';
import type { LanceVectorStoreOptions } from './lance-options';
import { MaintenanceClaim } from './maintenance-claim';

export type MaintenanceWork = 'index' | 'reindex' | 'compact';

export interface MaintenanceStats {
  /** Work done by this process, by kind. */
  done: Record<MaintenanceWork, number>;
  /** Checks that found work to do but another process held the collection's claim. */
  claimedElsewhere: number;
  failures: number;
  lastError: Error | undefined;
}

/** The vector index of a table: what the store builds, on the `vector` column. */
export async function vectorIndexOf(table: Table): Promise<IndexConfig | undefined> {
  return (await table.listIndices()).find((index) => index.columns.includes('vector'));
}

/**
 * Keeps a collection's table fast to search, off the request path: after a write, a check runs in the background
 * (one at a time per collection; writes meanwhile ask for one more). It builds the IVF_HNSW_SQ index once the table
 * reaches `indexAboveRows`, folds rows written since into it with optimize() after `reindexAfterRows`, and compacts
 * the small fragments that each write adds after `compactAfterFragments`. One process sharing the directory does
 * each piece of work (MaintenanceClaim). Failures are logged and counted; the next write's check tries again.
 */
export class TableMaintenance {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;
  readonly stats: MaintenanceStats = { done: { index: 0, reindex: 0, compact: 0 }, claimedElsewhere: 0, failures: 0, lastError: undefined };

  constructor(
    private readonly directory: string,
    private readonly options: LanceVectorStoreOptions,
    private readonly logger: Logger = createLogger('vectors'),
  ) {}

  afterWrite(collection: string, table: Table): void {
    if (this.stopped || !this.options.maintenance) return;
    if (this.running.has(collection)) {
      this.again.add(collection);
      return;
    }
    const run = this.runChecks(collection, table).finally(() => this.running.delete(collection));
    this.running.set(collection, run);
  }

  /** Resolves once no check or build is in flight (an index build can take minutes at 100k rows). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** No new work; what runs finishes (LanceDB cannot cancel a build), see idle(). */
  stop(): void {
    this.stopped = true;
  }

  private async runChecks(collection: string, table: Table): Promise<void> {
    do {
      this.again.delete(collection);
      try {
        await this.check(collection, table);
      } catch (err) {
        this.stats.failures++;
        this.stats.lastError = err as Error;
        this.logger.error({ err, collection }, 'vector collection maintenance failed; the next write retries it');
      }
    } while (this.again.has(collection) && !this.stopped);
  }

  private async check(collection: string, table: Table): Promise<void> {
    const work = await this.workFor(table);
    if (work === undefined) return;
    const claim = await MaintenanceClaim.take(this.directory, collection, this.options.claimStaleAfterMs);
    if (!claim) {
      this.stats.claimedElsewhere++;
      return;
    }
    try {
      // Asked again under the claim: the process that held it before may have done this very work.
      const confirmed = await this.workFor(table);
      if (confirmed === undefined) return;
      const started = Date.now();
      // optimize() compacts, and adds rows written since the last build to an existing index.
      await retryOnCommitConflict(() => table.optimize());
      if (confirmed === 'index') {
        await table.createIndex('vector', { config: Index.hnswSq({ distanceType: 'cosine' }), replace: false });
      }
      this.stats.done[confirmed]++;
      this.logger.info({ collection, work: confirmed, ms: Date.now() - started }, 'vector collection maintained');
    } finally {
      await claim.release();
    }
  }

  private async workFor(table: Table): Promise<MaintenanceWork | undefined> {
    const stats = await table.stats();
    const compact = stats.fragmentStats.numSmallFragments >= this.options.compactAfterFragments ? 'compact' : undefined;
    const index = await vectorIndexOf(table);
    if (!index) return stats.numRows >= this.options.indexAboveRows ? 'index' : compact;
    // From listIndices, not indexStats (which also loads the centroids, and warns about it on stderr).
    return (index.numUnindexedRows ?? 0) >= this.options.reindexAfterRows ? 'reindex' : compact;
  }
}

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CollectionState } from './collection-state';
import { HnswIndex, type HnswParams } from './hnsw-index';

/**
 * Builds and extends a collection's HNSW graph in the background, a few milliseconds at a time, so that
 * indexing a large collection never stalls the event loop (BullMQ lock renewals and health checks run
 * on it). Searches stay correct meanwhile: rows not yet in the graph are scanned exactly.
 */
export class CollectionIndexer {
  private running: Promise<void> | undefined;
  private stopped = false;
  private failure: unknown;

  constructor(
    private readonly state: CollectionState,
    private readonly params: HnswParams,
    private readonly sliceMs: number,
  ) {}

  /** True when the graph covers every row. */
  get ready(): boolean {
    return this.state.index !== undefined && this.state.indexedUpTo === this.state.matrix.rows;
  }

  /** Starts the background loop unless it is running (idempotent, returns at once). */
  start(): void {
    if (this.running !== undefined || this.stopped || this.failure !== undefined) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Rethrows a failure of the background loop (a bug: inserting into the graph has no expected failure). */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Starts indexing if needed and resolves when the graph covers every row. */
  async whenReady(): Promise<void> {
    while (!this.ready && !this.stopped) {
      this.throwIfFailed();
      this.start();
      await this.running;
    }
    this.throwIfFailed();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    const state = this.state;
    try {
      while (!this.stopped) {
        // Re-read every slice: a compaction between slices renumbers rows and drops the graph.
        if (state.index === undefined) {
          state.index = new HnswIndex(state.matrix, this.params);
          state.indexedUpTo = 0;
        }
        const index = state.index;
        const deadline = performance.now() + this.sliceMs;
        while (state.indexedUpTo < state.matrix.rows && performance.now() < deadline) {
          const row = state.indexedUpTo;
          // A row that died before its turn never needs to be reachable.
          if (state.isLive(row)) index.insert(row);
          state.indexedUpTo = row + 1;
        }
        if (state.indexedUpTo >= state.matrix.rows) return;
        await yieldToEventLoop();
      }
    } catch (err) {
      // Kept, not dropped: searches rethrow it through throwIfFailed(), and the half-built graph is discarded.
      this.failure = err;
      state.index = undefined;
      state.indexedUpTo = 0;
    }
  }
}

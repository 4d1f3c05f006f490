import { z } from 'zod';

/**
 * How a LanceVectorStore searches and keeps its tables (docs/decisions/0033 has the figures behind each default).
 * Exact search below `indexAboveRows`; above it, an IVF_HNSW_SQ index built in the background, never in a request.
 */
export const LanceVectorStoreOptions = z
  .object({
    /** Where the tables live (one `<collection>.lance` folder each; created if missing). Any number of processes may share it. */
    directory: z.string().min(1),
    /**
     * From this many rows a collection gets an IVF_HNSW_SQ index, and a search whose filter matches this many rows
     * uses it; every other search is an exact scan of the filtered rows (a run's few hundred claims, say).
     */
    indexAboveRows: z.number().int().min(1).default(50_000),
    /** Rows written since the index was built (searched exactly meanwhile) before optimize() folds them into it. */
    reindexAfterRows: z.number().int().min(1).default(10_000),
    /** Small fragments (each write adds one) before optimize() compacts them: a scan over thousands of them is slow. */
    compactAfterFragments: z.number().int().min(2).default(64),
    /** IVF partitions probed and the re-ranking factor of an indexed search: recall 0.907 at 100k points against 0.564 with the defaults. */
    nprobes: z.number().int().min(1).default(50),
    refineFactor: z.number().int().min(1).default(10),
    /** False: this process never builds or compacts (another one sharing the directory does). */
    maintenance: z.boolean().default(true),
    /** A maintenance claim older than this was left by a process that died mid-build: the next writer takes it over. */
    claimStaleAfterMs: z
      .number()
      .int()
      .min(1)
      .default(2 * 60 * 60 * 1000),
  })
  .strict();
export type LanceVectorStoreOptions = z.output<typeof LanceVectorStoreOptions>;
export type LanceVectorStoreOptionsInput = z.input<typeof LanceVectorStoreOptions>;

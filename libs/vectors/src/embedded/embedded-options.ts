import { z } from 'zod';
import { HnswParams } from './hnsw-index';

export const EmbeddedVectorStoreOptions = z
  .object({
    /** Where the collection files live (created if missing); one store instance per directory at a time. */
    directory: z.string().min(1),
    /** A filtered candidate set smaller than this is always scanned exactly. */
    exactSearchBelow: z.number().int().min(0).default(5000),
    /**
     * Below this share of the collection's rows, a filter is "very selective": a graph walk would pass
     * mostly through other tenants' points, so the candidates are scanned exactly instead.
     */
    minGraphSelectivity: z.number().min(0).max(1).default(0.05),
    /** Upper bound on a filtered graph search's candidate list. */
    maxEf: z.number().int().min(1).max(65_536).default(2048),
    hnsw: HnswParams.prefault({}),
    /** fdatasync every append: writes then survive a power cut, not only a process crash. */
    fsync: z.boolean().default(true),
    /** How long the background indexer may hold the event loop per slice. */
    indexSliceMs: z.number().min(1).max(1000).default(10),
    compaction: z
      .object({
        /** Dead rows / dead log lines tolerated before compacting at all. */
        minGarbage: z.number().int().min(0).default(1000),
        /** …and only once they are at least this many times the live points. */
        garbageRatio: z.number().min(0).default(1),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type EmbeddedVectorStoreOptions = z.output<typeof EmbeddedVectorStoreOptions>;
export type EmbeddedVectorStoreOptionsInput = z.input<typeof EmbeddedVectorStoreOptions>;

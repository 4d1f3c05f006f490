import { z } from 'zod';
import type { ExtractionFailureCode } from '../errors';
import { AuthorityClassSchema } from '../policy/authority-class';

/** A collection name as users type it; it appears in `corpus://<collection>/...` URLs (percent-encoded). */
export const CollectionName = z
  .string()
  .trim()
  .min(1)
  .max(120)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .refine((name) => !/[\u0000-\u001F\u007F/]/.test(name), 'a collection name has no "/" and no control characters');

export const IngestOptionsSchema = z.strictObject({
  tenantId: z.uuid(),
  collection: CollectionName,
  paths: z.array(z.string().min(1)).min(1),
  /** Folder the stored paths are relative to; default: the deepest folder containing every named path. */
  root: z.string().min(1).optional(),
  /** Per-file size cap in bytes (default MAX_FILE_BYTES, 25 MB). */
  maxFileBytes: z.int().positive().optional(),
  /** Files written per transaction (default 100). */
  batchSize: z.int().min(1).max(1000).optional(),
  /** Globs over paths relative to the root (a pattern without `/` matches file names): only these / never these. */
  include: z.array(z.string().min(1).max(500)).max(100).optional(),
  exclude: z.array(z.string().min(1).max(500)).max(100).optional(),
  /** What the collection is; its documents' authority (decision 0056). Default: kept, or detected when not set yet. */
  kind: AuthorityClassSchema.optional(),
});

export interface IngestProgress {
  /** Files read (extracted, or failed) out of `total` files to ingest; written in batches after. */
  done: number;
  total: number;
  path: string;
}

export type IngestOptions = z.input<typeof IngestOptionsSchema> & {
  onProgress?: (progress: IngestProgress) => void;
};

export interface IngestFailure {
  /** The file system path (as named, for a named path). */
  path: string;
  code: ExtractionFailureCode;
  /** A sentence for a person: what is wrong with the file. */
  reason: string;
}

/**
 * What one ingestion did. Every path it looked at is counted once in `scanned`, so
 * scanned = ingested + updated + unchanged + duplicates + skipped + failed.length.
 */
export interface IngestReport {
  collectionId: string;
  /** Files found (supported or not) plus named paths and folders that could not be read. */
  scanned: number;
  /** New documents stored. */
  ingested: number;
  /** Stored documents whose text, title or media type changed. */
  updated: number;
  /** Files whose stored document is already current: nothing was written. */
  unchanged: number;
  /** Files whose text equals a document stored under another path: not stored again (see `duplicateOf`). */
  duplicates: number;
  /** Files found inside folders and left out: unsupported, excluded, a twin of a page, a whole-manual bundle. */
  skipped: number;
  /** Each skipped file with its reason (file system paths). */
  skippedFiles: { path: string; reason: string }[];
  /** Stored documents removed because their file is now an alias or a bundle (ingested before twins were merged). */
  removed: number;
  /** The collection's kind after this ingestion (null: not known). */
  kind: string | null;
  failed: IngestFailure[];
  /** For each duplicate, the collection path that holds its text. */
  duplicateOf: { path: string; duplicateOf: string }[];
}

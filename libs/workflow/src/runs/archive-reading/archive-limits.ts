import { RUN_ARCHIVE_LIMITS } from '@dossier/contracts';
import type { JsonBounds } from './json-bounds';

/**
 * The bounds of reading one archive file (issue 30, decision 0066). A real run's archive is a few MB unpacked (the
 * demo's: 126 KiB gzip, under 1 MiB unpacked); these leave room for long runs over large documents, and keep a
 * hostile file's cost to seconds of one worker thread.
 */
export const ARCHIVE_READ_LIMITS = {
  /** Bytes of JSON a file may unpack to; decompression stops at this many (413 beyond). */
  maxUnpackedBytes: 64 * 1024 * 1024,
  json: {
    maxDepth: 64,
    maxItems: Math.max(RUN_ARCHIVE_LIMITS.calls, RUN_ARCHIVE_LIMITS.answers),
    /** One string: a report file, a page's text recorded whole. */
    maxStringChars: 16 * 1024 * 1024,
  } satisfies JsonBounds,
  /** Wall time of reading one file in its worker thread. */
  timeoutMs: 30_000,
  /** Heap of that worker: the parsed archive and its copies. */
  maxHeapMb: 1024,
} as const;

import { createHash } from 'node:crypto';
import {
  collectionKind,
  deleteCollectionDocuments,
  deleteDocumentsAt,
  ensureCollection,
  insertDocuments,
  setCollectionKind,
  storedDocuments,
  updateDocument,
  type Db,
} from '@dossier/db';
import { classifyError } from '@dossier/errors';
import { ExtractionError, SourcePathNotFoundError } from '../errors';
import { extractBytes } from '../extract/extract-file';
import type { AuthorityClass } from '../policy/authority-class';
import { IngestOptionsSchema, type IngestFailure, type IngestOptions, type IngestReport } from './ingest-types';
import { planBatch, type Candidate, type Outcome } from './plan-batch';
import { MAX_FILE_BYTES, readSourceFile } from './read-source-file';
import { walkPaths, type WalkedFile } from './walk-paths';

const DEFAULT_BATCH_SIZE = 100;
/** Files extracted at once: the extraction pool has two workers (HTML, PDF), and markdown runs here meanwhile. */
const EXTRACT_AHEAD = 2;
/** Folder names that make a collection documentation when nothing else says what it is. */
const DOCUMENTATION_FOLDERS = new Set([
  'doc',
  'docs',
  'documentation',
  'manual',
  'manuals',
  'man',
  'api',
  'reference',
  'handbook',
  'guide',
  'guides',
]);
// A batch is also cut when its texts reach this size, so memory stays bounded on big files.
const MAX_BATCH_TEXT_CHARS = 32 * 1024 * 1024;
// One batch inserts up to 100 documents and Postgres builds each one's tsvector: far above Prisma's 5 s.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 120_000 };

export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  // Already inside the caller's transaction: its atomicity covers ours.
  return '$transaction' in db ? db.$transaction(work, TRANSACTION_OPTIONS) : work(db);
}

/** Postgres' own words from a Prisma error (whose message also quotes our source code), for a report line. */
function databaseMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const db = /Code: `(\w+)`\. Message: `([\s\S]*)`/.exec(message);
  if (db) return `Postgres refused it (${db[1]}): ${db[2]}`;
  return message.trim().split('\n').pop() ?? message;
}

interface Pending extends Candidate {
  absolutePath: string;
}

class Ingestion {
  readonly report: IngestReport;
  private done = 0;

  constructor(
    private readonly db: Db,
    private readonly tenantId: string,
    private readonly collectionId: string,
    private readonly total: number,
    private readonly pending: Set<string>,
    private readonly onProgress: IngestOptions['onProgress'],
  ) {
    this.report = {
      collectionId,
      scanned: 0,
      ingested: 0,
      updated: 0,
      unchanged: 0,
      duplicates: 0,
      skipped: 0,
      skippedFiles: [],
      removed: 0,
      kind: null,
      failed: [],
      duplicateOf: [],
    };
  }

  progress(path: string): void {
    this.done++;
    this.onProgress?.({ done: this.done, total: this.total, path });
  }

  fail(failure: IngestFailure): void {
    this.report.failed.push(failure);
  }

  /** Writes a batch in one transaction; if Postgres refuses one of its documents, retries them one by one. */
  async write(batch: Pending[]): Promise<void> {
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = await inTransaction(this.db, (tx) => this.writeBatch(tx, batch));
    } catch (err) {
      if (classifyError(err) === 'retryable') throw err;
      // The transaction rolled back: the batch's files are not processed yet after all.
      for (const c of batch) this.pending.add(c.path);
      const [only] = batch;
      if (batch.length === 1 && only !== undefined) {
        this.fail({ path: only.absolutePath, code: 'not_stored', reason: `not stored: ${databaseMessage(err)}` });
        this.pending.delete(only.path);
        return;
      }
      // Find the document Postgres refuses by writing them one at a time.
      for (const one of batch) await this.write([one]);
      return;
    }
    for (const outcome of outcomes) {
      switch (outcome.kind) {
        case 'ingested':
          this.report.ingested++;
          break;
        case 'updated':
          this.report.updated++;
          break;
        case 'unchanged':
          this.report.unchanged++;
          break;
        case 'duplicate':
          this.report.duplicates++;
          this.report.duplicateOf.push({ path: outcome.path, duplicateOf: outcome.duplicateOf });
          break;
      }
    }
  }

  private async writeBatch(tx: Db, batch: Pending[]): Promise<Outcome[]> {
    // Concurrent ingestions of one collection take turns per batch, so two never plan against the same rows.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${this.collectionId}, 0))`;
    const stored = await storedDocuments(
      tx,
      this.collectionId,
      batch.map((c) => c.path),
      batch.map((c) => c.contentHash),
    );
    const plan = planBatch(batch, stored, this.pending);
    if (plan.deletes.length > 0) {
      await deleteCollectionDocuments(tx, this.collectionId, plan.deletes);
    }
    for (const { id, candidate } of plan.updates) {
      await updateDocument(tx, id, { ...this.columns(candidate), updatedAt: new Date() });
    }
    if (plan.inserts.length > 0) {
      await insertDocuments(
        tx,
        plan.inserts.map((c) => ({ tenantId: this.tenantId, collectionId: this.collectionId, ...this.columns(c) })),
      );
    }
    return plan.outcomes;
  }

  private columns(c: Candidate) {
    return {
      path: c.path,
      title: c.title,
      mediaType: c.mediaType,
      contentHash: c.contentHash,
      text: c.text,
      byteSize: c.byteSize,
      modifiedAt: c.modifiedAt,
      aliases: c.aliases,
    };
  }
}

async function extractFile(file: WalkedFile, maxBytes: number): Promise<Pending> {
  const source = await readSourceFile(file.absolutePath, maxBytes);
  let extraction;
  try {
    extraction = await extractBytes(source.bytes, file.absolutePath);
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    // A parser that chokes on one odd file (Readability, PDF.js) must not stop the other thousand: the
    // file is listed as failed with the parser's own words.
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new ExtractionError('extraction_error', `could not extract text: ${detail}`, { cause: err });
  }
  return {
    absolutePath: file.absolutePath,
    path: file.relativePath,
    title: extraction.title,
    mediaType: extraction.mediaType,
    text: extraction.text,
    contentHash: contentHash(extraction.text),
    byteSize: source.byteSize,
    modifiedAt: source.modifiedAt,
    aliases: file.aliases ?? [],
  };
}

/**
 * Titles that tell documents apart: a title already taken in this ingestion gets the document's section path (its
 * folders and name, `api/fs`), so a source list never shows two "Introduction"s. First come keeps the plain title;
 * the order is the walk's, so the same tree gives the same titles.
 */
class DistinctTitles {
  private readonly taken = new Set<string>();

  of(title: string, relativePath: string): string {
    let distinct = title;
    if (this.taken.has(title.toLowerCase())) {
      const section = relativePath.replace(/(\.gz)?$/i, '').replace(/\.[^./]+$/, '');
      distinct = `${title} (${section})`;
    }
    this.taken.add(distinct.toLowerCase());
    return distinct;
  }
}

/**
 * The kind of a collection that has none yet, from what its folder looks like: pages in several formats, a
 * whole-manual bundle, or a folder named like documentation (`doc`, `docs`, `manual`, `api`, `reference`, ...) on the
 * way to the files make it documentation. Anything else stays unknown (null): a folder of reports and minutes is not
 * documentation, and its documents keep the authority their paths and titles give.
 */
export function detectCollectionKind(root: string, files: readonly WalkedFile[], superseded: readonly string[]): AuthorityClass | null {
  if (superseded.length > 0 || files.some((f) => (f.aliases ?? []).length > 0)) return 'documentation';
  const folders = root.toLowerCase().split(/[\\/]+/);
  return folders.some((f) => DOCUMENTATION_FOLDERS.has(f)) ? 'documentation' : null;
}

/** Sets the collection's kind when asked to, or when it has none and one was detected; returns the kind it has. */
async function settleKind(
  db: Db,
  collectionId: string,
  asked: AuthorityClass | null,
  detected: AuthorityClass | null,
): Promise<string | null> {
  const current = await collectionKind(db, collectionId);
  const next = asked ?? current ?? detected;
  if (next !== current) await setCollectionKind(db, collectionId, next);
  return next;
}

/**
 * Ingests files and folders into a tenant's collection (created on demand): extracts each file's text,
 * stores one document per page (a page in several formats once, the others as its aliases; decision 0055), and goes on past bad files, listing each with its reason. Idempotent:
 * an unchanged file writes nothing, a changed one updates its row. A file whose text is already stored
 * under another path is reported as a duplicate of it and not stored twice (rules in plan-batch.ts).
 * Files no longer on disk are not removed. Throws SourcePathNotFoundError when no named path exists.
 *
 * `db` may be the client (one transaction per batch) or a transaction (everything in it).
 */
export async function ingestPaths(db: Db, options: IngestOptions): Promise<IngestReport> {
  const { onProgress, ...input } = options;
  const {
    tenantId,
    collection,
    paths,
    root,
    maxFileBytes = MAX_FILE_BYTES,
    batchSize = DEFAULT_BATCH_SIZE,
    include,
    exclude,
    kind,
  } = IngestOptionsSchema.parse(input);

  const walked = await walkPaths(paths, root, { include, exclude });
  if (walked.missing.length === paths.length) throw new SourcePathNotFoundError(walked.missing);

  const { id: collectionId } = await ensureCollection(db, tenantId, collection);
  const pending = new Set(walked.files.map((f) => f.relativePath));
  const run = new Ingestion(db, tenantId, collectionId, walked.files.length, pending, onProgress);
  for (const missing of walked.missing) run.fail({ path: missing, code: 'not_found', reason: 'not found: no such file or folder' });
  for (const failure of walked.failed) run.fail(failure);
  run.report.skipped = walked.skipped;
  run.report.skippedFiles = walked.skippedFiles;
  run.report.kind = await settleKind(db, collectionId, kind ?? null, detectCollectionKind(walked.root, walked.files, walked.superseded));
  // Pages stored one per format before twins were merged: their twin (or the parts of a bundle) stands for them now.
  if (walked.superseded.length > 0) {
    run.report.removed = await deleteDocumentsAt(db, collectionId, walked.superseded);
  }
  const titles = new DistinctTitles();

  // Postgres writes one batch (in its own process) while this thread extracts the next: on a small machine
  // that overlap is most of the throughput. At most two batches are in memory.
  let writing: Promise<void> = Promise.resolve();
  let batch: Pending[] = [];
  let batchChars = 0;
  const flush = async (): Promise<void> => {
    await writing;
    writing = run.write(batch);
    // Marks the write as handled now, so a failure while the next batch is extracted is not an unhandled
    // rejection; the error itself is still thrown where `writing` is awaited.
    void writing.catch(() => undefined);
    batch = [];
    batchChars = 0;
  };
  // Up to EXTRACT_AHEAD extractions run while one is consumed, in order; each settles to a value so none is unhandled.
  const extractions: Promise<Pending | ExtractionError>[] = [];
  const startExtraction = (i: number): void => {
    const file = walked.files[i];
    if (file === undefined) return;
    extractions[i] = extractFile(file, maxFileBytes).catch((err: unknown) => {
      if (err instanceof ExtractionError) return err;
      throw err;
    });
    void extractions[i].catch(() => undefined);
  };
  for (let i = 0; i < EXTRACT_AHEAD; i++) startExtraction(i);
  try {
    for (const [i, file] of walked.files.entries()) {
      const extracted = await extractions[i]!;
      startExtraction(i + EXTRACT_AHEAD);
      run.progress(file.absolutePath);
      if (extracted instanceof ExtractionError) {
        pending.delete(file.relativePath);
        run.fail({ path: file.absolutePath, code: extracted.reason, reason: extracted.message });
        continue;
      }
      const candidate = { ...extracted, title: titles.of(extracted.title, file.relativePath) };
      batch.push(candidate);
      batchChars += candidate.text.length;
      if (batch.length >= batchSize || batchChars >= MAX_BATCH_TEXT_CHARS) await flush();
    }
    await flush();
    await writing;
  } catch (err) {
    // Never return with a write or an extraction still running. Their own failures, if any, came second: the first
    // error is the one worth reporting, so they are awaited only to let them settle.
    await Promise.allSettled(extractions);
    await writing.then(
      () => undefined,
      () => undefined,
    );
    throw err;
  }

  run.report.scanned = walked.files.length + walked.skipped + walked.failed.length + walked.missing.length;
  // The corpus search finds a query's passages word by word through the text index (decision 0141): a planner that
  // still takes the passages table for empty (no autovacuum yet, or none at all) reads every passage for each word.
  if (run.report.ingested + run.report.updated + run.report.removed > 0) await db.$executeRaw`ANALYZE document_passages`;
  return run.report;
}

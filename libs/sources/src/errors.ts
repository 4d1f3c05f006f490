import { UnrecoverableError } from '@dossier/errors';

/** Every path given to an ingestion is missing: there is nothing to ingest, which is bad input. */
export class SourcePathNotFoundError extends UnrecoverableError {
  readonly code = 'source_path_not_found';
  constructor(readonly paths: readonly string[]) {
    super(`source path not found: ${paths.join(', ')}`, { details: { paths } });
  }
}

/** Why one file could not be turned into text. Ingestion lists these per file and goes on. */
export type ExtractionFailureCode =
  | 'not_found'
  | 'unreadable'
  | 'unsupported'
  | 'too_large'
  | 'binary'
  | 'empty'
  | 'corrupt_pdf'
  | 'encrypted_pdf'
  | 'extraction_error'
  | 'not_stored';

export class ExtractionError extends UnrecoverableError {
  readonly code = 'extraction_failed';
  constructor(
    readonly reason: ExtractionFailureCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { ...options, details: { reason } });
  }
}

export class DocumentNotFoundError extends UnrecoverableError {
  readonly code = 'document_not_found';
}

export class SnapshotNotFoundError extends UnrecoverableError {
  readonly code = 'snapshot_not_found';
}

/** start/end are not a valid range of the snapshot text (negative, reversed, past the end, not integers). */
export class ExcerptRangeError extends UnrecoverableError {
  readonly code = 'excerpt_range_invalid';
}

/** The excerpt is not the exact text at [start, end) of its snapshot: the citation would not be verbatim. */
export class ExcerptMismatchError extends UnrecoverableError {
  readonly code = 'excerpt_mismatch';
}

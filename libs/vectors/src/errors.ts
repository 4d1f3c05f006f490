import { RetryableError, UnrecoverableError, type DossierErrorOptions } from '@dossier/errors';

/**
 * A vector whose length is not the collection's dimension. Retrying cannot help: the caller embedded with a
 * different model (or a different configuration) than the collection was created with.
 */
export class VectorDimensionMismatchError extends UnrecoverableError {
  readonly code = 'vector_dimension_mismatch';
  readonly expected: number;
  readonly actual: number;

  constructor(collection: string, expected: number, actual: number, options: DossierErrorOptions = {}) {
    super(`Collection "${collection}" holds ${expected}-dimensional vectors; got a ${actual}-dimensional vector`, {
      ...options,
      details: { ...options.details, collection, expected, actual },
    });
    this.expected = expected;
    this.actual = actual;
  }
}

/** The collection was never created with ensureCollection (a Qdrant server answers 404 the same way). */
export class VectorCollectionNotFoundError extends UnrecoverableError {
  readonly code = 'vector_collection_not_found';
}

/** The store was closed; a closed store never reopens itself. */
export class VectorStoreClosedError extends UnrecoverableError {
  readonly code = 'vector_store_closed';
}

/** A collection whose stored form cannot be used: a table without our columns, or a point whose payload is not JSON. */
export class VectorStoreCorruptError extends UnrecoverableError {
  readonly code = 'vector_store_corrupt';
}

/**
 * The embedded store (LanceDB) could not read or write its directory: a full disk, lost permissions, a file
 * removed under it. Often passing (space freed, a volume remounted), hence retryable; the cause says which.
 */
export class VectorStoreIoError extends RetryableError {
  readonly code = 'vector_store_io';
}

import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, DossierError, WriteConflictError } from '@dossier/errors';
import { VectorCollectionNotFoundError, VectorStoreIoError } from '../errors';

// LanceDB's native errors carry no code: its messages are all there is to tell them apart.
// "Incompatible transaction … concurrent transaction Overwrite": a merge-insert racing the commit of another process's
// table creation (seen in CI, four writers creating one table at once); re-read and retried like the others.
const COMMIT_CONFLICT = /commit conflict|preempted by concurrent transaction|incompatible with concurrent transaction|Please retry/i;
const TABLE_NOT_FOUND = /Table '[^']*' was not found|Dataset at path .* was not found/i;

/** The message of a native error: made in Node's own realm, it is not `instanceof Error` inside a Jest sandbox. */
export function messageOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

/** Another writer (this process or another) committed a new version of the table first: the write may be retried. */
export function isCommitConflict(err: unknown): boolean {
  return COMMIT_CONFLICT.test(messageOf(err));
}

export function isTableNotFound(err: unknown): boolean {
  return TABLE_NOT_FOUND.test(messageOf(err));
}

/** LanceDB's error in our classes: a missing collection, a write that lost too many races, or the disk. */
export function translateLanceError(err: unknown, collection: string): Error {
  if (err instanceof DossierError) return err;
  // The first line: LanceDB appends its chain of causes with source paths.
  const detail = messageOf(err).split(/\s+Caused by:/)[0] ?? '';
  if (isTableNotFound(err)) {
    return new VectorCollectionNotFoundError(`Vector collection "${collection}" does not exist; call ensureCollection first`, {
      cause: err,
    });
  }
  if (isCommitConflict(err)) {
    return new WriteConflictError(`Writes to vector collection "${collection}" kept conflicting with other writers: ${detail}`, {
      cause: err,
    });
  }
  return new VectorStoreIoError(`The vector store failed on collection "${collection}": ${detail}`, { cause: err });
}

const ATTEMPTS = 8;

/**
 * Runs a table write again when another writer committed first. LanceDB commits optimistically and retries some
 * conflicts itself (concurrent appends); the rest (two creations of a table, a compaction rewriting fragments a
 * merge-insert touches) surface as "Please retry", which is what this does, with the project's jittered backoff.
 */
export async function retryOnCommitConflict<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isCommitConflict(err) || attempt >= ATTEMPTS) throw err;
      await sleep(backoffMs(attempt, 15, 1_000));
    }
  }
}

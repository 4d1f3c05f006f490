import type { StoredDocument } from '@dossier/db';

/** A file ready to be written: its extracted text and what identifies it. */
export interface Candidate {
  path: string;
  title: string;
  mediaType: string;
  text: string;
  contentHash: string;
  byteSize: number;
  modifiedAt: Date;
  /** The same page in other formats (collection paths). */
  aliases: string[];
}

/** The columns of a stored document that decide what happens to a candidate (libs/db reads them). */
export type { StoredDocument };

export type Outcome =
  | { kind: 'ingested'; path: string }
  | { kind: 'updated'; path: string }
  | { kind: 'unchanged'; path: string }
  | { kind: 'duplicate'; path: string; duplicateOf: string };

export interface BatchPlan {
  /** Rows to delete first: stale rows of files that became duplicates, and rows evicted (see below). */
  deletes: string[];
  /** Then these updates, in this order (an earlier one may free a hash a later one takes). */
  updates: { id: string; candidate: Candidate }[];
  /** Then these inserts. */
  inserts: Candidate[];
  outcomes: Outcome[];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Decides, without I/O, what one batch of candidates does to the stored documents of a collection.
 * Paths are identity (one row per path); content hashes are unique per collection, so a file whose text
 * is already stored under another path is a duplicate of that path and is not stored again.
 *
 * Which of two equal files is stored depends only on the run's order, not on history: if the stored
 * owner of a hash is a file this run has not reached yet (`pending`), its row is evicted and the earlier
 * file takes the hash; the owner, when reached, becomes the duplicate (or is stored again if its content
 * changed). This is what makes swaps (a↔b) and renames come out right. A file that became a duplicate
 * loses its own, now stale, row.
 *
 * `stored` holds the collection's rows whose path or hash is among the candidates'; `pending` the paths
 * of this run not yet processed (candidates of this batch included); the batch's paths are removed from it.
 */
export function planBatch(candidates: readonly Candidate[], stored: readonly StoredDocument[], pending: Set<string>): BatchPlan {
  const byPath = new Map<string, StoredDocument>();
  const byHash = new Map<string, StoredDocument>();
  for (const original of stored) {
    const row = { ...original };
    byPath.set(row.path, row);
    byHash.set(row.contentHash, row);
  }
  const forget = (row: StoredDocument): void => {
    byPath.delete(row.path);
    if (byHash.get(row.contentHash) === row) byHash.delete(row.contentHash);
  };
  const plan: BatchPlan = { deletes: [], updates: [], inserts: [], outcomes: [] };

  for (const candidate of candidates) {
    pending.delete(candidate.path);
    const own = byPath.get(candidate.path);
    if (own && own.contentHash === candidate.contentHash) {
      if (own.title === candidate.title && own.mediaType === candidate.mediaType && sameList(own.aliases, candidate.aliases)) {
        plan.outcomes.push({ kind: 'unchanged', path: candidate.path });
      } else {
        plan.updates.push({ id: own.id, candidate });
        own.title = candidate.title;
        own.mediaType = candidate.mediaType;
        own.aliases = candidate.aliases;
        plan.outcomes.push({ kind: 'updated', path: candidate.path });
      }
      continue;
    }

    let owner = byHash.get(candidate.contentHash);
    if (owner && pending.has(owner.path)) {
      plan.deletes.push(owner.id);
      forget(owner);
      owner = undefined;
    }
    if (owner) {
      if (own) {
        plan.deletes.push(own.id);
        forget(own);
      }
      plan.outcomes.push({ kind: 'duplicate', path: candidate.path, duplicateOf: owner.path });
      continue;
    }

    if (own) {
      plan.updates.push({ id: own.id, candidate });
      forget(own);
      const moved = {
        ...own,
        contentHash: candidate.contentHash,
        title: candidate.title,
        mediaType: candidate.mediaType,
        aliases: candidate.aliases,
      };
      byPath.set(moved.path, moved);
      byHash.set(moved.contentHash, moved);
      plan.outcomes.push({ kind: 'updated', path: candidate.path });
    } else {
      plan.inserts.push(candidate);
      const added = {
        id: '',
        path: candidate.path,
        contentHash: candidate.contentHash,
        title: candidate.title,
        mediaType: candidate.mediaType,
        aliases: candidate.aliases,
      };
      byPath.set(added.path, added);
      byHash.set(added.contentHash, added);
      plan.outcomes.push({ kind: 'ingested', path: candidate.path });
    }
  }
  return plan;
}

import type { VectorFilter, VectorPayload } from '../vector-store';

/**
 * Rows by every filter a search can ask for: (tenant), (tenant, run), (tenant, kind), (tenant, run, kind).
 * A filter is answered by one map lookup, so we know the candidate set's exact size before choosing
 * between an exact scan and the graph, and count() is O(1).
 */
export class FilterIndex {
  private readonly sets = new Map<string, Set<number>>();

  add(row: number, payload: VectorPayload): void {
    for (const key of pointKeys(payload)) {
      let set = this.sets.get(key);
      if (set === undefined) {
        set = new Set();
        this.sets.set(key, set);
      }
      set.add(row);
    }
  }

  remove(row: number, payload: VectorPayload): void {
    for (const key of pointKeys(payload)) {
      const set = this.sets.get(key);
      if (set === undefined) continue;
      set.delete(row);
      // Dropping empty sets keeps a long-lived store from accumulating one entry per run ever seen.
      if (set.size === 0) this.sets.delete(key);
    }
  }

  rows(filter: VectorFilter): ReadonlySet<number> {
    return this.sets.get(filterKey(filter.tenantId, filter.runId, filter.kind)) ?? EMPTY;
  }

  clear(): void {
    this.sets.clear();
  }
}

const EMPTY: ReadonlySet<number> = new Set();

// JSON of a 3-tuple: unambiguous whatever characters the ids contain; null is the "any" wildcard.
function filterKey(tenantId: string, runId: string | undefined, kind: string | undefined): string {
  return JSON.stringify([tenantId, runId ?? null, kind ?? null]);
}

function pointKeys(payload: VectorPayload): string[] {
  const keys = [filterKey(payload.tenantId, undefined, undefined), filterKey(payload.tenantId, undefined, payload.kind)];
  if (payload.runId !== undefined) {
    keys.push(filterKey(payload.tenantId, payload.runId, undefined), filterKey(payload.tenantId, payload.runId, payload.kind));
  }
  return keys;
}

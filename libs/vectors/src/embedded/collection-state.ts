import type { VectorFilter, VectorPayload } from '../vector-store';
import { FilterIndex } from './filter-index';
import type { HnswIndex } from './hnsw-index';
import { VectorMatrix } from './vector-matrix';

export type UpsertEffect = 'unchanged' | 'payload' | 'inserted';

export interface LivePoint {
  id: string;
  row: number;
  payload: VectorPayload;
}

/**
 * One collection in memory. Points live in rows of a matrix; replacing a point's vector appends a new row
 * and leaves the old one dead (the HNSW graph may still route through it), so rows only ever grow until
 * compact() rewrites them. Every mutation is synchronous: a search never sees half an upsert.
 */
export class CollectionState {
  matrix: VectorMatrix;
  /** Row → point id; meaningful only for live rows. */
  private ids: string[] = [];
  /** Row → payload; undefined marks a dead row. */
  private payloads: (VectorPayload | undefined)[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly filters = new FilterIndex();
  private deadRows = 0;
  /** Bumped whenever rows are renumbered: anything holding row numbers (the graph) is then stale. */
  generation = 0;
  /** The graph over rows [0, indexedUpTo); rows at and beyond it are searched exactly until indexed. */
  index: HnswIndex | undefined;
  indexedUpTo = 0;

  constructor(
    readonly name: string,
    readonly dimension: number,
  ) {
    this.matrix = new VectorMatrix(dimension);
  }

  get live(): number {
    return this.rowOf.size;
  }

  get dead(): number {
    return this.deadRows;
  }

  isLive(row: number): boolean {
    return this.payloads[row] !== undefined;
  }

  idOf(row: number): string {
    return this.ids[row];
  }

  payloadOf(row: number): VectorPayload {
    const payload = this.payloads[row];
    if (payload === undefined) throw new RangeError(`row ${row} of "${this.name}" is dead`);
    return payload;
  }

  rows(filter: VectorFilter): ReadonlySet<number> {
    return this.filters.rows(filter);
  }

  /** What upsert() would do, without doing it: lets the store skip writing no-op records to its log. */
  effectOf(id: string, unit: Float32Array, payload: VectorPayload): UpsertEffect {
    const row = this.rowOf.get(id);
    if (row === undefined || !this.matrix.rowEquals(row, unit)) return 'inserted';
    return payloadsEqual(this.payloadOf(row), payload) ? 'unchanged' : 'payload';
  }

  /** `unit` must already be unit length and `payload` free of undefined values (the store prepares both). */
  upsert(id: string, unit: Float32Array, payload: VectorPayload): UpsertEffect {
    const effect = this.effectOf(id, unit, payload);
    const row = this.rowOf.get(id);
    if (effect === 'unchanged') return effect;
    if (effect === 'payload' && row !== undefined) {
      this.filters.remove(row, this.payloadOf(row));
      this.payloads[row] = payload;
      this.filters.add(row, payload);
      return effect;
    }
    if (row !== undefined) this.kill(row);
    const fresh = this.matrix.append(unit);
    this.ids[fresh] = id;
    this.payloads[fresh] = payload;
    this.rowOf.set(id, fresh);
    this.filters.add(fresh, payload);
    return effect;
  }

  delete(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.kill(row);
    return true;
  }

  *livePoints(): Generator<LivePoint> {
    for (let row = 0; row < this.matrix.rows; row++) {
      const payload = this.payloads[row];
      if (payload !== undefined) yield { id: this.ids[row], row, payload };
    }
  }

  /** Renumbers live rows densely and drops the graph (its row numbers are now wrong); the owner rebuilds it. */
  compact(): void {
    const matrix = new VectorMatrix(this.dimension, Math.max(256, this.live));
    const ids: string[] = [];
    const payloads: VectorPayload[] = [];
    this.rowOf.clear();
    this.filters.clear();
    for (let row = 0; row < this.matrix.rows; row++) {
      const payload = this.payloads[row];
      if (payload === undefined) continue;
      const fresh = matrix.append(this.matrix.data.subarray(row * this.dimension, (row + 1) * this.dimension));
      ids[fresh] = this.ids[row];
      payloads[fresh] = payload;
      this.rowOf.set(ids[fresh], fresh);
      this.filters.add(fresh, payload);
    }
    this.matrix = matrix;
    this.ids = ids;
    this.payloads = payloads;
    this.deadRows = 0;
    this.index = undefined;
    this.indexedUpTo = 0;
    this.generation++;
  }

  private kill(row: number): void {
    this.filters.remove(row, this.payloadOf(row));
    this.rowOf.delete(this.ids[row]);
    this.payloads[row] = undefined;
    this.deadRows++;
  }
}

function payloadsEqual(a: VectorPayload, b: VectorPayload): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

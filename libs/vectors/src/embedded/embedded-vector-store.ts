import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ValidationError } from '@dossier/errors';
import { VectorCollectionNotFoundError, VectorDimensionMismatchError, VectorStoreClosedError, VectorStoreCorruptError } from '../errors';
import { toUnitVector } from '../vector-math';
import {
  canonicalPointId,
  CollectionNameSchema,
  DimensionSchema,
  parseOrThrow,
  PointIdSchema,
  VectorFilterSchema,
  VectorPayloadSchema,
  VectorSearchOptionsSchema,
  type VectorFilter,
  type VectorHit,
  type VectorPayload,
  type VectorPoint,
  type VectorSearchOptions,
  type VectorStore,
} from '../vector-store';
import { CollectionIndexer } from './collection-indexer';
import { CollectionLog } from './collection-log';
import { CollectionState } from './collection-state';
import { DirectoryLock } from './directory-lock';
import { EmbeddedVectorStoreOptions, type EmbeddedVectorStoreOptionsInput } from './embedded-options';
import { exactTopK, type ScoredRow } from './exact-search';
import { deleteLine, upsertLine, type DecodedRecord } from './log-records';
import { SerialQueue } from './serial-queue';

const FILE_SUFFIX = '.vectors.jsonl';
// A delete of a whole run can name many thousands of ids: split it over lines of bounded length.
const IDS_PER_DELETE_LINE = 4096;

export interface EmbeddedCollectionStats {
  name: string;
  dimension: number;
  points: number;
  /** Rows of replaced or deleted points still held in memory until the next compaction. */
  deadRows: number;
  /** Lines in the collection file after its header. */
  logRecords: number;
  /** Rows in the HNSW graph (dead ones included); 0 until a search or buildIndex() needs the graph. */
  indexedRows: number;
  indexReady: boolean;
  /** How searches were answered: exact scan, graph, or graph that fell back to a scan. */
  searches: { exact: number; graph: number; fallback: number };
}

interface OpenCollection {
  state: CollectionState;
  log: CollectionLog;
  /** Writes to one collection run one at a time, in call order; searches never wait for them. */
  writes: SerialQueue;
  indexer: CollectionIndexer;
  searches: { exact: number; graph: number; fallback: number };
}

interface PreparedPoint {
  id: string;
  unit: Float32Array;
  payload: VectorPayload;
}

/**
 * A VectorStore for one machine: each collection is an append-only log file under `directory`, replayed
 * into memory on open. Searches are exact cosine scans over the filtered candidates when those are few
 * (or a small share of the collection), and walks of an HNSW graph when they are many. It exists so a
 * single-machine install needs no extra service; it implements the same port as the Qdrant adapter.
 */
export class EmbeddedVectorStore implements VectorStore {
  private readonly collections = new Map<string, OpenCollection>();
  /** Serialises collection creation, so two concurrent ensureCollection calls cannot both create the file. */
  private readonly admin = new SerialQueue();
  private closing: Promise<void> | undefined;

  private constructor(
    readonly directory: string,
    private readonly options: EmbeddedVectorStoreOptions,
    private readonly lock: DirectoryLock,
  ) {}

  static async open(input: EmbeddedVectorStoreOptionsInput): Promise<EmbeddedVectorStore> {
    const options = parseOrThrow(EmbeddedVectorStoreOptions, input, 'embedded vector store options');
    const directory = resolve(options.directory);
    await mkdir(directory, { recursive: true });
    const lock = await DirectoryLock.acquire(directory);
    const store = new EmbeddedVectorStore(directory, options, lock);
    try {
      await store.load();
    } catch (err) {
      await store.abandon(err);
    }
    return store;
  }

  async ensureCollection(name: string, dimension: number): Promise<void> {
    this.assertOpen();
    parseOrThrow(CollectionNameSchema, name, 'collection name');
    parseOrThrow(DimensionSchema, dimension, 'dimension');
    await this.admin.run(async () => {
      const existing = this.collections.get(name);
      if (existing !== undefined) {
        if (existing.state.dimension !== dimension) throw new VectorDimensionMismatchError(name, existing.state.dimension, dimension);
        return;
      }
      const log = await CollectionLog.create(this.fileOf(name), dimension, { fsync: this.options.fsync });
      this.register(new CollectionState(name, dimension), log);
    });
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    this.assertOpen();
    const c = this.collection(collection);
    // Everything is checked before anything is written: a batch with one bad point writes nothing.
    const prepared = preparePoints(collection, c.state.dimension, points);
    await c.writes.run(async () => {
      const latest = new Map<string, PreparedPoint>();
      for (const point of prepared) latest.set(point.id, point); // the last of duplicate ids wins
      const changed = [...latest.values()].filter((p) => c.state.effectOf(p.id, p.unit, p.payload) !== 'unchanged');
      if (changed.length === 0) return;
      await c.log.append(changed.map((p) => upsertLine(p.id, p.payload, p.unit)));
      for (const p of changed) c.state.upsert(p.id, p.unit, p.payload);
      if (c.state.index !== undefined) c.indexer.start();
      await this.compactIfWasteful(c);
    });
  }

  async search(collection: string, vector: Float32Array | number[], opts: VectorSearchOptions): Promise<VectorHit[]> {
    this.assertOpen();
    const c = this.collection(collection);
    const { filter, limit, minScore } = parseOrThrow(VectorSearchOptionsSchema, opts, 'search options');
    const query = toUnitVector(vector, collection, c.state.dimension);
    const found = this.nearest(c, query, c.state.rows(filter), limit);
    const hits: VectorHit[] = [];
    for (const { row, score } of found) {
      if (minScore !== undefined && score < minScore) continue;
      // A copy: callers may mutate what they get without reaching into the store.
      hits.push({ id: c.state.idOf(row), score, payload: { ...c.state.payloadOf(row) } });
    }
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async delete(collection: string, filter: VectorFilter): Promise<number> {
    this.assertOpen();
    const c = this.collection(collection);
    const parsed = parseOrThrow(VectorFilterSchema, filter, 'filter');
    return c.writes.run(async () => {
      const ids = [...c.state.rows(parsed)].map((row) => c.state.idOf(row));
      if (ids.length === 0) return 0;
      const lines: string[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_DELETE_LINE) lines.push(deleteLine(ids.slice(i, i + IDS_PER_DELETE_LINE)));
      await c.log.append(lines);
      for (const id of ids) c.state.delete(id);
      await this.compactIfWasteful(c);
      return ids.length;
    });
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    this.assertOpen();
    const c = this.collection(collection);
    if (filter === undefined) return c.state.live;
    return c.state.rows(parseOrThrow(VectorFilterSchema, filter, 'filter')).size;
  }

  /** Waits for queued writes, stops indexing, closes the files and releases the directory. Idempotent. */
  async close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Builds (or finishes) the collection's HNSW graph now instead of on the first large search. */
  async buildIndex(collection: string): Promise<void> {
    this.assertOpen();
    await this.collection(collection).indexer.whenReady();
  }

  /** Rewrites the collection's file and rows without dead entries, whatever the thresholds say. */
  async compact(collection: string): Promise<void> {
    this.assertOpen();
    const c = this.collection(collection);
    await c.writes.run(async () => {
      this.compactRows(c);
      await c.log.rewrite(c.state.dimension, liveLines(c.state));
    });
  }

  stats(collection: string): EmbeddedCollectionStats {
    this.assertOpen();
    const c = this.collection(collection);
    return {
      name: collection,
      dimension: c.state.dimension,
      points: c.state.live,
      deadRows: c.state.dead,
      logRecords: c.log.records,
      indexedRows: c.state.index?.size ?? 0,
      indexReady: c.indexer.ready,
      searches: { ...c.searches },
    };
  }

  /** The `limit` best rows among `rows` (all live), best first; how depends on how many there are. */
  private nearest(c: OpenCollection, query: Float32Array, rows: ReadonlySet<number>, limit: number): ScoredRow[] {
    const state = c.state;
    const n = rows.size;
    if (n === 0) return [];
    const large = n >= this.options.exactSearchBelow && n / state.matrix.rows >= this.options.minGraphSelectivity;
    if (!large) {
      c.searches.exact++;
      return exactTopK(state.matrix, query, rows, limit);
    }
    c.indexer.throwIfFailed();
    const index = state.index;
    if (index === undefined || index.size === 0) {
      // First large search: answer it exactly and build the graph in the background for the next ones.
      c.indexer.start();
      c.searches.exact++;
      return exactTopK(state.matrix, query, rows, limit);
    }
    // Rows appended since the graph last caught up are not in it yet: they are scanned exactly.
    const tail: number[] = [];
    for (let row = state.indexedUpTo; row < state.matrix.rows; row++) if (rows.has(row)) tail.push(row);
    const inGraph = n - tail.length;
    // The walk keeps `ef` accepted candidates and passes through rejected ones (other tenants, dead rows),
    // so `ef` above the limit is the oversampling: several times the limit, at least efSearch.
    const ef = Math.min(this.options.maxEf, Math.max(this.options.hnsw.efSearch, 4 * limit));
    const fromGraph = index.search(query, limit, ef, (row) => rows.has(row));
    if (fromGraph.length < Math.min(limit, inGraph)) {
      // The walk ran out of reachable matches before finding enough: the filter is too selective for the graph.
      c.searches.fallback++;
      return exactTopK(state.matrix, query, rows, limit);
    }
    c.searches.graph++;
    const merged: ScoredRow[] = fromGraph.map((hit) => ({ row: hit.node, score: hit.score }));
    if (tail.length > 0) merged.push(...exactTopK(state.matrix, query, tail, limit));
    return merged.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private async compactIfWasteful(c: OpenCollection): Promise<void> {
    const { minGarbage, garbageRatio } = this.options.compaction;
    const live = c.state.live;
    const dead = c.state.dead;
    if (dead > 0 && dead >= minGarbage && dead >= live * garbageRatio) this.compactRows(c);
    const garbage = c.log.records - live;
    if (garbage > 0 && garbage >= minGarbage && garbage >= live * garbageRatio) {
      await c.log.rewrite(c.state.dimension, liveLines(c.state));
    }
  }

  private compactRows(c: OpenCollection): void {
    const hadGraph = c.state.index !== undefined;
    c.state.compact();
    // The graph's row numbers died with the old rows; rebuild it in the background if it was in use.
    if (hadGraph) c.indexer.start();
  }

  private async load(): Promise<void> {
    const names = await readdir(this.directory);
    for (const name of names) {
      // Leftovers of a create or compaction cut short: the rename that would have published them never ran.
      if (name.endsWith(`${FILE_SUFFIX}.tmp`)) await unlink(join(this.directory, name));
    }
    for (const name of names) {
      if (!name.endsWith(FILE_SUFFIX)) continue;
      const collection = name.slice(0, -FILE_SUFFIX.length);
      if (!CollectionNameSchema.safeParse(collection).success) {
        throw new VectorStoreCorruptError(`${join(this.directory, name)}: not a valid collection name`);
      }
      let state: CollectionState | undefined;
      const { log } = await CollectionLog.open(this.fileOf(collection), { fsync: this.options.fsync }, (dimension) => {
        const fresh = new CollectionState(collection, dimension);
        state = fresh;
        return (record) => replay(fresh, record);
      });
      if (state === undefined) throw new VectorStoreCorruptError(`${this.fileOf(collection)}: no header`); // open() already refuses this
      const c = this.register(state, log);
      await this.compactIfWasteful(c);
    }
  }

  private register(state: CollectionState, log: CollectionLog): OpenCollection {
    const c: OpenCollection = {
      state,
      log,
      writes: new SerialQueue(),
      indexer: new CollectionIndexer(state, this.options.hnsw, this.options.indexSliceMs),
      searches: { exact: 0, graph: 0, fallback: 0 },
    };
    this.collections.set(state.name, c);
    return c;
  }

  private async shutdown(): Promise<void> {
    const failures: unknown[] = [];
    await this.admin.drain();
    const closed = await Promise.allSettled(
      [...this.collections.values()].map(async (c) => {
        await c.indexer.stop();
        await c.writes.drain();
        await c.log.close();
      }),
    );
    for (const result of closed) if (result.status === 'rejected') failures.push(result.reason);
    try {
      await this.lock.release();
    } catch (err) {
      failures.push(err);
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, `closing the vector store in ${this.directory} failed ${failures.length} ways`);
  }

  /** Open failed half-way: release what was taken, then rethrow the failure. */
  private async abandon(err: unknown): Promise<never> {
    this.closing = Promise.resolve();
    const cleanup = await Promise.allSettled([...[...this.collections.values()].map((c) => c.log.close()), this.lock.release()]);
    const more = cleanup.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    if (more.length > 0)
      throw new AggregateError([err, ...more], `opening the vector store in ${this.directory} failed, and so did cleaning up`);
    throw err;
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new VectorStoreClosedError(`The vector store in ${this.directory} is closed`);
  }

  private collection(name: string): OpenCollection {
    const c = this.collections.get(name);
    if (c === undefined)
      throw new VectorCollectionNotFoundError(`No vector collection "${name}" in ${this.directory}`, { details: { collection: name } });
    return c;
  }

  private fileOf(collection: string): string {
    return join(this.directory, `${collection}${FILE_SUFFIX}`);
  }
}

function replay(state: CollectionState, record: DecodedRecord): void {
  if (record.op === 'delete') {
    for (const id of record.ids) state.delete(id);
  } else {
    state.upsert(record.id, record.vector, record.payload);
  }
}

function* liveLines(state: CollectionState): Generator<string> {
  for (const point of state.livePoints()) {
    yield upsertLine(point.id, point.payload, state.matrix.data.subarray(point.row * state.dimension, (point.row + 1) * state.dimension));
  }
}

function preparePoints(collection: string, dimension: number, points: unknown): PreparedPoint[] {
  if (!Array.isArray(points)) throw new ValidationError('upsert() takes an array of points');
  return points.map((point: unknown, i): PreparedPoint => {
    if (typeof point !== 'object' || point === null) throw new ValidationError(`point[${i}] is not an object`);
    const { id, vector, payload } = point as Partial<VectorPoint>;
    const parsedId = parseOrThrow(PointIdSchema, id, `point[${i}].id`);
    const parsedPayload = parseOrThrow(VectorPayloadSchema, payload, `point[${i}].payload`) as VectorPayload;
    if (vector === undefined) throw new ValidationError(`point[${i}] has no vector`);
    return { id: canonicalPointId(parsedId), unit: toUnitVector(vector, collection, dimension), payload: withoutUndefined(parsedPayload) };
  });
}

/** Undefined payload values are dropped, as JSON (our log and Qdrant's API) drops them. */
function withoutUndefined(payload: VectorPayload): VectorPayload {
  const out: VectorPayload = { tenantId: payload.tenantId, kind: payload.kind };
  for (const [key, value] of Object.entries(payload)) if (value !== undefined) out[key] = value;
  return out;
}

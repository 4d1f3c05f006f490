import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { connect, type Connection, type Table } from '@lancedb/lancedb';
import { ValidationError, WriteConflictError } from '@dossier/errors';
import { VectorDimensionMismatchError, VectorStoreClosedError, VectorStoreIoError } from '../errors';
import { atOnce } from '../at-once';
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
  type VectorQuery,
  type VectorSearchOptions,
  type VectorStore,
} from '../vector-store';
import { isCommitConflict, isTableNotFound, messageOf, retryOnCommitConflict, translateLanceError } from './lance-errors';
import { toPredicate } from './lance-filter';
import { LanceVectorStoreOptions, type LanceVectorStoreOptionsInput } from './lance-options';
import { dimensionOf, HIT_COLUMNS, tableSchema, toHit, toRow, type LanceRow } from './lance-rows';
import { SerialQueue } from './serial-queue';
import { TableMaintenance } from './table-maintenance';

interface OpenCollection {
  table: Table;
  dimension: number;
  /** This process's writes to the collection, one at a time: fewer commit conflicts than racing each other. */
  writes: SerialQueue;
}

/**
 * The VectorStore port on LanceDB, embedded: a Rust engine in this process over Lance files in `directory`, one
 * table per collection (columns id, tenantId, runId, kind, payload as JSON text, vector), no server. Several
 * processes may share the directory: commits are atomic and optimistic (a write that loses a race is retried),
 * and every read sees the latest committed version. Searches are cosine, filtered before ranking, and exact unless
 * the filter matches `indexAboveRows` rows or more; the index behind those is built in the background
 * (TableMaintenance). Qdrant's adapter implements the same port for deployments of several machines.
 */
export class LanceVectorStore implements VectorStore {
  private readonly collections = new Map<string, Promise<OpenCollection>>();
  private closing: Promise<void> | undefined;
  /** How searches were answered: an exact scan of the filtered rows, or the ANN index. */
  readonly searches = { exact: 0, indexed: 0 };

  private constructor(
    readonly directory: string,
    private readonly options: LanceVectorStoreOptions,
    private readonly db: Connection,
    readonly maintenance: TableMaintenance,
  ) {}

  static async open(input: LanceVectorStoreOptionsInput): Promise<LanceVectorStore> {
    const options = parseOrThrow(LanceVectorStoreOptions, input, 'LanceDB vector store options');
    const directory = resolve(options.directory);
    try {
      await mkdir(directory, { recursive: true });
      // Interval 0: every read first checks for versions other processes committed; they share the directory.
      const db = await connect(directory, { readConsistencyInterval: 0 });
      return new LanceVectorStore(directory, options, db, new TableMaintenance(directory, options));
    } catch (err) {
      throw new VectorStoreIoError(`Cannot open the vector store at ${directory}: ${messageOf(err)}`, { cause: err });
    }
  }

  async ensureCollection(name: string, dimension: number): Promise<void> {
    this.assertOpen();
    parseOrThrow(CollectionNameSchema, name, 'collection name');
    parseOrThrow(DimensionSchema, dimension, 'dimension');
    const c = await this.collection(name).catch((err: unknown) => {
      if ((err as { code?: string }).code !== 'vector_collection_not_found') throw err;
      return this.collection(name, dimension);
    });
    if (c.dimension !== dimension) throw new VectorDimensionMismatchError(name, c.dimension, dimension);
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    this.assertOpen();
    if (!Array.isArray(points)) throw new ValidationError('upsert() takes an array of points');
    const c = await this.collection(collection);
    // Everything is checked before anything is written: a batch with one bad point writes nothing.
    const rows = prepareRows(collection, c.dimension, points);
    if (rows.length === 0) return;
    await c.writes.run(() =>
      this.call(collection, () =>
        retryOnCommitConflict(() => c.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows)),
      ),
    );
    this.maintenance.afterWrite(collection, c.table);
  }

  async search(collection: string, vector: Float32Array | number[], opts: VectorSearchOptions): Promise<VectorHit[]> {
    this.assertOpen();
    const { filter, limit, minScore } = parseOrThrow(VectorSearchOptionsSchema, opts, 'search options');
    const c = await this.collection(collection);
    const query = Array.from(toUnitVector(vector, collection, c.dimension));
    const predicate = toPredicate(filter);
    const rows = await this.call(collection, async () => {
      const base = c.table.vectorSearch(query).distanceType('cosine').where(predicate).select(HIT_COLUMNS).limit(limit);
      // A filter that keeps few rows (one run's claims) is searched exactly: an index probing 50 partitions can
      // miss rows of a small filtered set that sit in the others.
      const indexed = await this.worthTheIndex(c.table, predicate);
      this.searches[indexed ? 'indexed' : 'exact']++;
      const q = indexed ? base.nprobes(this.options.nprobes).refineFactor(this.options.refineFactor) : base.bypassVectorIndex();
      return q.toArray();
    });
    return (rows as Parameters<typeof toHit>[0][])
      .map((row) => toHit(row, collection))
      .filter((hit) => minScore === undefined || hit.score >= minScore)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * LanceDB searches in this process: no request to save, so the searches run a few at once, each as `search`. Every
   * query is checked first, as Qdrant's batch does, so a bad one fails the batch before any runs.
   */
  async searchMany(collection: string, queries: readonly VectorQuery[]): Promise<VectorHit[][]> {
    this.assertOpen();
    if (!Array.isArray(queries)) throw new ValidationError('searchMany() takes an array of queries');
    if (queries.length === 0) return [];
    const c = await this.collection(collection);
    queries.forEach((q, i) => {
      parseOrThrow(VectorSearchOptionsSchema, q?.opts, `query[${i}] options`);
      if (q.vector === undefined) throw new ValidationError(`query[${i}] has no vector`);
      toUnitVector(q.vector, collection, c.dimension);
    });
    return atOnce(queries, (q) => this.search(collection, q.vector, q.opts));
  }

  async delete(collection: string, filter: VectorFilter): Promise<number> {
    this.assertOpen();
    const predicate = toPredicate(parseOrThrow(VectorFilterSchema, filter, 'filter'));
    const c = await this.collection(collection);
    const { numDeletedRows } = await c.writes.run(() =>
      this.call(collection, () => retryOnCommitConflict(() => c.table.delete(predicate))),
    );
    if (numDeletedRows > 0) this.maintenance.afterWrite(collection, c.table);
    return numDeletedRows;
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    this.assertOpen();
    const predicate = filter === undefined ? undefined : toPredicate(parseOrThrow(VectorFilterSchema, filter, 'filter'));
    const c = await this.collection(collection);
    return this.call(collection, () => c.table.countRows(predicate));
  }

  /**
   * Waits for this process's writes and for maintenance in flight (LanceDB cannot cancel an index build, and the
   * process could not exit before it ends anyway), then releases the tables. Later calls are refused.
   */
  async close(): Promise<void> {
    this.closing ??= (async () => {
      this.maintenance.stop();
      const open = (await Promise.allSettled(this.collections.values()))
        .filter((r): r is PromiseFulfilledResult<OpenCollection> => r.status === 'fulfilled')
        .map((r) => r.value);
      await Promise.all(open.map((c) => c.writes.drain()));
      await this.maintenance.idle();
      for (const c of open) c.table.close();
      this.db.close();
    })();
    return this.closing;
  }

  private async worthTheIndex(table: Table, predicate: string): Promise<boolean> {
    const threshold = this.options.indexAboveRows;
    // The whole table's count is metadata; the filtered count scans the filter columns, only asked when it matters.
    return (await table.countRows()) >= threshold && (await table.countRows(predicate)) >= threshold;
  }

  /** The collection's open table; opened once per process. Without `createWith`, a missing table is an error. */
  private collection(name: string, createWith?: number): Promise<OpenCollection> {
    const cached = this.collections.get(name);
    if (cached) return cached;
    const opening = this.openTable(name, createWith);
    this.collections.set(name, opening);
    // A failed open (a collection not created yet) is not remembered: the next call looks again.
    opening.catch(() => {
      if (this.collections.get(name) === opening) this.collections.delete(name);
    });
    return opening;
  }

  private async openTable(name: string, createWith: number | undefined): Promise<OpenCollection> {
    for (let attempt = 0; attempt < 8; attempt++) {
      let table: Table;
      try {
        table = await this.db.openTable(name);
      } catch (err) {
        if (!isTableNotFound(err) || createWith === undefined) throw translateLanceError(err, name);
        try {
          table = await this.db.createEmptyTable(name, tableSchema(createWith), { mode: 'create', existOk: true });
        } catch (createErr) {
          // Another process (or worker) created it at the same moment: open theirs, and check its dimension.
          if (isCommitConflict(createErr) || /already exists/i.test(messageOf(createErr))) continue;
          throw translateLanceError(createErr, name);
        }
      }
      const schema = await this.call(name, () => table.schema());
      return { table, dimension: dimensionOf(schema, name), writes: new SerialQueue() };
    }
    throw new WriteConflictError(`Vector collection "${name}" could be neither created nor opened: other processes kept creating it`);
  }

  private async call<T>(collection: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw translateLanceError(err, collection);
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new VectorStoreClosedError(`The vector store at ${this.directory} was closed`);
  }
}

/** Validated rows of a batch, the last of duplicate ids kept (as a second upsert of the same id would leave it). Undefined payload values are dropped, as JSON drops them. */
function prepareRows(collection: string, dimension: number, points: unknown[]): LanceRow[] {
  const latest = new Map<string, LanceRow>();
  points.forEach((point: unknown, i) => {
    if (typeof point !== 'object' || point === null) throw new ValidationError(`point[${i}] is not an object`);
    const { id, vector, payload } = point as Partial<VectorPoint>;
    const parsedId = canonicalPointId(parseOrThrow(PointIdSchema, id, `point[${i}].id`));
    const parsedPayload = parseOrThrow(VectorPayloadSchema, payload, `point[${i}].payload`) as VectorPayload;
    if (vector === undefined) throw new ValidationError(`point[${i}] has no vector`);
    latest.delete(parsedId); // re-inserted at the end: the batch keeps the order of last occurrences
    latest.set(parsedId, toRow(parsedId, toUnitVector(vector, collection, dimension), parsedPayload));
  });
  return [...latest.values()];
}

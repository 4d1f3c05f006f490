import { QdrantClient } from '@qdrant/js-client-rest';
import { DependencyUnavailableError, ValidationError } from '@dossier/errors';
import { VectorCollectionNotFoundError, VectorDimensionMismatchError, VectorStoreClosedError } from '../errors';
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

export interface QdrantVectorStoreOptions {
  url: string;
  apiKey?: string;
  /** Points per upsert request: large batches are split so no request exceeds Qdrant's body limit. */
  batchSize?: number;
  /** Searches per batch request (`searchMany`): split like upserts, for the same limit. */
  searchBatchSize?: number;
  timeoutMs?: number;
}

/** Payload fields every search filters on: indexed when a collection is created (tenant first, as Qdrant's tenant index). */
const PAYLOAD_INDEXES = [
  { field: 'tenantId', schema: { type: 'keyword', is_tenant: true } },
  { field: 'runId', schema: { type: 'keyword' } },
  { field: 'kind', schema: { type: 'keyword' } },
] as const;

type QdrantFilter = { must: { key: string; match: { value: string } }[] };

function toQdrantFilter(filter: VectorFilter): QdrantFilter {
  const must = [{ key: 'tenantId', match: { value: filter.tenantId } }];
  if (filter.runId !== undefined) must.push({ key: 'runId', match: { value: filter.runId } });
  if (filter.kind !== undefined) must.push({ key: 'kind', match: { value: filter.kind } });
  return { must };
}

/** A query point as Qdrant answers it (`query` and `query/batch`). */
type QdrantScoredPoint = { id: string | number; score: number; payload?: Record<string, unknown> | null };

/** Qdrant's points as hits: best first, ties by id, none below `minScore` (Qdrant's threshold is applied again here). */
function toHits(points: readonly QdrantScoredPoint[], minScore: number | undefined): VectorHit[] {
  return points
    .map((p) => ({ id: canonicalPointId(String(p.id)), score: p.score, payload: (p.payload ?? {}) as VectorPayload }))
    .filter((h) => minScore === undefined || h.score >= minScore)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function withoutUndefined(payload: VectorPayload): VectorPayload {
  const out: VectorPayload = { tenantId: payload.tenantId, kind: payload.kind };
  for (const [key, value] of Object.entries(payload)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * The VectorStore port on Qdrant (REST, `@qdrant/js-client-rest`). Collections are created on demand with
 * cosine distance and payload indexes on tenant, run and kind; point ids are the UUIDv5 of the domain key
 * (pointId), so upserts are idempotent; every read and delete is filtered by tenant. Qdrant 1.19's client
 * has no `search`: nearest neighbours go through the universal `query` endpoint.
 */
export class QdrantVectorStore implements VectorStore {
  private readonly client: QdrantClient;
  private readonly dimensions = new Map<string, number>();
  private readonly batchSize: number;
  private readonly searchBatchSize: number;
  private closed = false;

  constructor(private readonly options: QdrantVectorStoreOptions) {
    // No version probe at construction: it is a network call, and boot must not depend on Qdrant being up.
    this.client = new QdrantClient({
      url: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      checkCompatibility: false,
      timeout: options.timeoutMs ?? 30_000,
    });
    this.batchSize = options.batchSize ?? 256;
    this.searchBatchSize = options.searchBatchSize ?? 64;
  }

  async ensureCollection(name: string, dimension: number): Promise<void> {
    this.assertOpen();
    parseOrThrow(CollectionNameSchema, name, 'collection name');
    parseOrThrow(DimensionSchema, dimension, 'dimension');
    let existing = await this.dimensionOf(name, false);
    if (existing === undefined) {
      try {
        await this.client.createCollection(name, { vectors: { size: dimension, distance: 'Cosine' } });
      } catch (err) {
        // Another worker created it first (409): use theirs, after checking its dimension below.
        if (statusOf(err) !== 409 && statusOf(err) !== 400) throw this.translate(err, name);
      }
      existing = await this.dimensionOf(name, true);
      for (const index of PAYLOAD_INDEXES) {
        await this.call(name, () =>
          this.client.createPayloadIndex(name, { field_name: index.field, field_schema: index.schema, wait: true }),
        );
      }
    }
    if (existing !== dimension) throw new VectorDimensionMismatchError(name, existing!, dimension);
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    this.assertOpen();
    if (!Array.isArray(points)) throw new ValidationError('upsert() takes an array of points');
    const dimension = await this.requireDimension(collection);
    // Everything is checked before anything is sent: a batch with one bad point writes nothing.
    const latest = new Map<string, { id: string; vector: number[]; payload: VectorPayload }>();
    points.forEach((point, i) => {
      const id = canonicalPointId(parseOrThrow(PointIdSchema, point?.id, `point[${i}].id`));
      const payload = withoutUndefined(parseOrThrow(VectorPayloadSchema, point?.payload, `point[${i}].payload`) as VectorPayload);
      if (point.vector === undefined) throw new ValidationError(`point[${i}] has no vector`);
      latest.set(id, { id, vector: Array.from(toUnitVector(point.vector, collection, dimension)), payload }); // the last of duplicate ids wins
    });
    const unique = [...latest.values()];
    for (let i = 0; i < unique.length; i += this.batchSize) {
      const batch = unique.slice(i, i + this.batchSize);
      await this.call(collection, () => this.client.upsert(collection, { wait: true, points: batch }));
    }
  }

  async search(collection: string, vector: Float32Array | number[], opts: VectorSearchOptions): Promise<VectorHit[]> {
    this.assertOpen();
    const dimension = await this.requireDimension(collection);
    const { request, minScore } = this.queryRequest(collection, dimension, vector, opts, 'search');
    const result = await this.call(collection, () => this.client.query(collection, request));
    return toHits(result.points, minScore);
  }

  /** One `query/batch` request per `searchBatchSize` searches (decision 0156); every query checked before the first is sent. */
  async searchMany(collection: string, queries: readonly VectorQuery[]): Promise<VectorHit[][]> {
    this.assertOpen();
    if (!Array.isArray(queries)) throw new ValidationError('searchMany() takes an array of queries');
    if (queries.length === 0) return [];
    const dimension = await this.requireDimension(collection);
    const checked = queries.map((q, i) => this.queryRequest(collection, dimension, q?.vector, q?.opts, `query[${i}]`));
    const hits: VectorHit[][] = [];
    for (let i = 0; i < checked.length; i += this.searchBatchSize) {
      const batch = checked.slice(i, i + this.searchBatchSize);
      const answers = await this.call(collection, () => this.client.queryBatch(collection, { searches: batch.map((c) => c.request) }));
      // One answer per search, in order, is Qdrant's contract; anything else cannot be matched to the queries.
      if (!Array.isArray(answers) || answers.length !== batch.length) {
        throw new DependencyUnavailableError(
          `Qdrant at ${this.options.url} answered ${Array.isArray(answers) ? answers.length : 'no list of'} results for ${batch.length} searches on collection "${collection}"`,
        );
      }
      answers.forEach((answer, k) => hits.push(toHits(answer.points, batch[k]!.minScore)));
    }
    return hits;
  }

  /**
   * A search as Qdrant's query request, its options and vector checked (a vector of the wrong dimension names both);
   * `label` names the search in a refusal ("search options", "query[2] has no vector").
   */
  private queryRequest(collection: string, dimension: number, vector: Float32Array | number[] | undefined, opts: unknown, label: string) {
    const { filter, limit, minScore } = parseOrThrow(VectorSearchOptionsSchema, opts, `${label} options`);
    if (vector === undefined) throw new ValidationError(`${label} has no vector`);
    const request = {
      query: Array.from(toUnitVector(vector, collection, dimension)),
      filter: toQdrantFilter(filter),
      limit,
      with_payload: true,
      ...(minScore !== undefined ? { score_threshold: minScore } : {}),
    };
    return { request, minScore };
  }

  /** Qdrant's delete does not say how many it removed: counted first (a write racing the delete may skew it). */
  async delete(collection: string, filter: VectorFilter): Promise<number> {
    this.assertOpen();
    const parsed = parseOrThrow(VectorFilterSchema, filter, 'filter');
    const n = await this.count(collection, parsed);
    if (n === 0) return 0;
    await this.call(collection, () => this.client.delete(collection, { wait: true, filter: toQdrantFilter(parsed) }));
    return n;
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    this.assertOpen();
    const parsed = filter === undefined ? undefined : parseOrThrow(VectorFilterSchema, filter, 'filter');
    const result = await this.call(collection, () =>
      this.client.count(collection, { exact: true, ...(parsed ? { filter: toQdrantFilter(parsed) } : {}) }),
    );
    return result.count;
  }

  /** Nothing to release but the client's sockets (undici closes idle ones itself); later calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  private async requireDimension(collection: string): Promise<number> {
    return (await this.dimensionOf(collection, true))!;
  }

  private async dimensionOf(collection: string, required: boolean): Promise<number | undefined> {
    const cached = this.dimensions.get(collection);
    if (cached !== undefined) return cached;
    try {
      const info = await this.client.getCollection(collection);
      const vectors = info.config.params.vectors;
      const size = vectors && typeof (vectors as { size?: unknown }).size === 'number' ? (vectors as { size: number }).size : undefined;
      if (size === undefined)
        throw new ValidationError(`Qdrant collection "${collection}" has named vectors; Dossier expects one unnamed vector per point`);
      this.dimensions.set(collection, size);
      return size;
    } catch (err) {
      if (statusOf(err) === 404 && !required) return undefined;
      throw this.translate(err, collection);
    }
  }

  private async call<T>(collection: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.translate(err, collection);
    }
  }

  /** Qdrant's answers in our error classes: a missing collection, a refused request, or an outage to retry. */
  private translate(err: unknown, collection: string): Error {
    if (err instanceof ValidationError || err instanceof VectorDimensionMismatchError) return err;
    const status = statusOf(err);
    const detail = (err as { data?: { status?: { error?: string } } }).data?.status?.error ?? (err as Error).message;
    if (status === 404) {
      this.dimensions.delete(collection);
      return new VectorCollectionNotFoundError(`Vector collection "${collection}" does not exist in Qdrant; call ensureCollection first`, {
        cause: err,
      });
    }
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
      return new ValidationError(`Qdrant refused a request on collection "${collection}" (${status}): ${detail}`, { cause: err });
    }
    return new DependencyUnavailableError(`Qdrant at ${this.options.url} is unavailable (${status ?? 'no response'}): ${detail}`, {
      cause: err,
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new VectorStoreClosedError('The Qdrant vector store was closed');
  }
}

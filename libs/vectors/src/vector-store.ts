import { z } from 'zod';
import { ValidationError } from '@dossier/errors';
import { isUuid, uuidV5 } from './hashing/uuid-v5';

export type VectorPayloadValue = string | number | boolean | undefined;

/** What a point carries besides its vector. `tenantId` is on every point: searches are always tenant-scoped. */
export interface VectorPayload {
  tenantId: string;
  runId?: string;
  kind: string;
  [k: string]: VectorPayloadValue;
}

export interface VectorPoint {
  /** A UUID (see pointId): the one id format Qdrant accepts (LanceDB would take any string). */
  id: string;
  vector: Float32Array | number[];
  payload: VectorPayload;
}

/** A conjunction: tenant always, run and kind when given. A missing runId/kind means "any". */
export interface VectorFilter {
  tenantId: string;
  runId?: string;
  kind?: string;
}

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]; higher is closer. */
  score: number;
  payload: VectorPayload;
}

export interface VectorSearchOptions {
  filter: VectorFilter;
  limit: number;
  /** Hits scoring below this are left out. */
  minScore?: number;
}

/** One search of a batch (`VectorStore.searchMany`). */
export interface VectorQuery {
  vector: Float32Array | number[];
  opts: VectorSearchOptions;
}

/**
 * The vector store port. Implementations: LanceVectorStore (embedded, one machine, any number of processes) and
 * QdrantVectorStore (a server, several machines). Both must pass test/vector-store.contract.ts.
 */
export interface VectorStore {
  /** Creates the collection, or checks an existing one has this dimension (VectorDimensionMismatchError if not). */
  ensureCollection(name: string, dimension: number): Promise<void>;
  /** Inserts or replaces points by id; upserting the same point again changes nothing. */
  upsert(collection: string, points: VectorPoint[]): Promise<void>;
  /** Cosine nearest neighbours within the filter, best first. */
  search(collection: string, vector: Float32Array | number[], opts: VectorSearchOptions): Promise<VectorHit[]>;
  /**
   * Several searches of one collection, each answered as `search` answers it, in the queries' order. Every query is
   * checked before any is sent. A server that takes batches (Qdrant) gets one request for all of them, so a step's
   * searches cost one round trip, not one each (docs/decisions/0156).
   */
  searchMany(collection: string, queries: readonly VectorQuery[]): Promise<VectorHit[][]>;
  /** Deletes every point matching the filter; returns how many were deleted. */
  delete(collection: string, filter: VectorFilter): Promise<number>;
  count(collection: string, filter?: VectorFilter): Promise<number>;
  close(): Promise<void>;
}

const nonEmpty = z.string().min(1);

export const VectorFilterSchema = z.object({ tenantId: nonEmpty, runId: nonEmpty.optional(), kind: nonEmpty.optional() }).strict();

export const VectorPayloadSchema = z
  .object({ tenantId: nonEmpty, runId: nonEmpty.optional(), kind: nonEmpty })
  // z.number() refuses NaN and ±Infinity, which JSON (and Qdrant) cannot carry.
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.undefined()]));

export const PointIdSchema = z.string().refine(isUuid, { message: 'point id must be a UUID (use pointId(key))' });

export const VectorSearchOptionsSchema = z
  .object({ filter: VectorFilterSchema, limit: z.number().int().min(1).max(10_000), minScore: z.number().optional() })
  .strict();

// Collection names become table folder names (LanceDB) and URL segments (Qdrant): keep them to a safe alphabet.
export const CollectionNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/, 'collection name: letters, digits, "_" and "-", at most 128');

export const DimensionSchema = z.number().int().min(1).max(65_536);

/** Parses a boundary value, turning a schema failure into our ValidationError (keeping the ZodError as cause). */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(`Invalid ${what}: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  return parsed.data;
}

// Fixed forever: changing it would give every evidence/claim key a new point id and orphan stored points.
const DOSSIER_POINT_NAMESPACE = '5c3f6a2e-8d1b-4e7a-9c4f-2b6d8e0a1f37';

/**
 * A deterministic point id for a domain key (e.g. `evidence:<tenant>:<id>`): a version-5 UUID, so upserting
 * the same key twice hits the same point, and the id is valid for Qdrant, which accepts only UUIDs or integers.
 */
export function pointId(key: string): string {
  return uuidV5(key, DOSSIER_POINT_NAMESPACE);
}

/** Point ids compare case-insensitively as UUIDs do; we keep the lowercase form, as Qdrant returns it. */
export function canonicalPointId(id: string): string {
  return id.toLowerCase();
}

import { DataType, Field, FixedSizeList, Float32, Precision, Schema, Utf8, type Float } from 'apache-arrow';
import { VectorStoreCorruptError } from '../errors';
import type { VectorHit, VectorPayload } from '../vector-store';

/** A point as a table row: the fields every filter uses get columns, the rest of the payload is JSON text. A type, not
 * an interface: LanceDB takes rows as `Record<string, unknown>`. */
export type LanceRow = {
  id: string;
  tenantId: string;
  runId: string | null;
  kind: string;
  /** The payload's other fields: the port allows any string/number/boolean field, a table schema does not. */
  payload: string;
  vector: number[];
};

export const HIT_COLUMNS = ['id', 'tenantId', 'runId', 'kind', 'payload', '_distance'];

export function tableSchema(dimension: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('tenantId', new Utf8(), false),
    new Field('runId', new Utf8(), true),
    new Field('kind', new Utf8(), false),
    new Field('payload', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

/** The dimension of a table this store created; a table without our columns is not ours to write into. */
export function dimensionOf(schema: Schema, collection: string): number {
  const names = new Set(schema.fields.map((f) => f.name));
  const missing = ['id', 'tenantId', 'runId', 'kind', 'payload', 'vector'].filter((n) => !names.has(n));
  // Type ids, not instanceof: LanceDB hands back a schema of its own copy of apache-arrow's classes (in Jest, another module instance).
  const vector: unknown = schema.fields.find((f) => f.name === 'vector')?.type;
  const item: unknown = DataType.isFixedSizeList(vector) ? vector.children[0]?.type : undefined;
  if (
    missing.length > 0 ||
    !DataType.isFixedSizeList(vector) ||
    !DataType.isFloat(item) ||
    (item as Float).precision !== Precision.SINGLE
  ) {
    throw new VectorStoreCorruptError(
      `Table "${collection}" in the vector directory is not a Dossier collection (${missing.length > 0 ? `no column ${missing.join(', ')}` : `vector column of type ${String(vector)}`})`,
    );
  }
  return vector.listSize;
}

export function toRow(id: string, unit: Float32Array, payload: VectorPayload): LanceRow {
  const { tenantId, runId, kind, ...rest } = payload;
  // JSON drops undefined fields, as Qdrant's API does.
  return { id, tenantId, runId: runId ?? null, kind, payload: JSON.stringify(rest), vector: Array.from(unit) };
}

interface StoredHit {
  id: string;
  tenantId: string;
  runId: string | null;
  kind: string;
  payload: string;
  _distance: number;
}

export function toHit(row: StoredHit, collection: string): VectorHit {
  let rest: unknown;
  try {
    rest = JSON.parse(row.payload);
  } catch (err) {
    throw new VectorStoreCorruptError(`Point ${row.id} of "${collection}" has a payload that is not JSON`, { cause: err });
  }
  if (typeof rest !== 'object' || rest === null || Array.isArray(rest)) {
    throw new VectorStoreCorruptError(`Point ${row.id} of "${collection}" has a payload that is not a JSON object`);
  }
  const payload: VectorPayload = { ...(rest as Record<string, string | number | boolean>), tenantId: row.tenantId, kind: row.kind };
  if (row.runId !== null) payload.runId = row.runId;
  // Cosine distance is 1 − cosine similarity; a zero vector has no direction, and scores 0 against everything.
  const score = Number.isFinite(row._distance) ? 1 - row._distance : 0;
  return { id: row.id, score, payload };
}

import { endianness } from 'node:os';
import { z } from 'zod';
import { DimensionSchema, PointIdSchema, VectorPayloadSchema, type VectorPayload } from '../vector-store';

/** First line of every collection file. */
export const LogHeader = z.object({ format: z.literal('dossier-vectors'), version: z.literal(1), dimension: DimensionSchema }).strict();
export type LogHeader = z.infer<typeof LogHeader>;

/** A point as written: its unit vector as base64 of little-endian float32 (exact, and a third of JSON's size). */
const UpsertRecord = z.object({ op: z.literal('upsert'), id: PointIdSchema, payload: VectorPayloadSchema, vector: z.string() }).strict();
const DeleteRecord = z.object({ op: z.literal('delete'), ids: z.array(PointIdSchema).min(1) }).strict();
export const LogRecord = z.discriminatedUnion('op', [UpsertRecord, DeleteRecord]);
export type LogRecord = z.infer<typeof LogRecord>;

export type DecodedRecord = { op: 'upsert'; id: string; payload: VectorPayload; vector: Float32Array } | { op: 'delete'; ids: string[] };

const LITTLE_ENDIAN = endianness() === 'LE';

export function encodeVector(vector: Float32Array): string {
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  return bytes.toString('base64');
}

/** Null when the bytes are not `dimension` floats: the caller reports where. */
export function decodeVector(base64: string, dimension: number): Float32Array | null {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== dimension * 4) return null;
  const out = new Float32Array(dimension);
  // A copy either way: Buffer.from may hand back a slice of a shared pool at an unaligned offset.
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes);
  else for (let i = 0; i < dimension; i++) out[i] = bytes.readFloatLE(i * 4);
  for (let i = 0; i < dimension; i++) if (!Number.isFinite(out[i])) return null;
  return out;
}

export function upsertLine(id: string, payload: VectorPayload, vector: Float32Array): string {
  return `${JSON.stringify({ op: 'upsert', id, payload, vector: encodeVector(vector) })}\n`;
}

export function deleteLine(ids: string[]): string {
  return `${JSON.stringify({ op: 'delete', ids })}\n`;
}

export function headerLine(dimension: number): string {
  return `${JSON.stringify({ format: 'dossier-vectors', version: 1, dimension } satisfies LogHeader)}\n`;
}

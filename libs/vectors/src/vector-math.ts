import { ValidationError } from '@dossier/errors';
import { VectorDimensionMismatchError } from './errors';

/**
 * Copies a caller's vector into a unit-length Float32Array. Cosine similarity of unit vectors is their dot
 * product, so normalising once at write time makes every later comparison a plain dot. The zero vector
 * stays zero (it scores 0 against everything); NaN and infinities are refused before they poison a search.
 */
export function toUnitVector(vector: Float32Array | number[], collection: string, dimension: number): Float32Array {
  if (!(vector instanceof Float32Array) && !Array.isArray(vector)) {
    throw new ValidationError(`A vector must be a Float32Array or a number[] (collection "${collection}")`);
  }
  if (vector.length !== dimension) throw new VectorDimensionMismatchError(collection, dimension, vector.length);
  const out = new Float32Array(dimension);
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    const x = vector[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new ValidationError(`Vector component ${i} is not a finite number (collection "${collection}")`);
    }
    out[i] = x;
    norm += x * x;
  }
  if (norm === 0) return out;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimension; i++) out[i] = out[i] * inv;
  return out;
}

/** Dot product of `dimension` floats starting at `aOffset` in `a` and `bOffset` in `b`. The hot loop of every search. */
export function dotAt(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, dimension: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  const end4 = dimension - (dimension & 3);
  for (; i < end4; i += 4) {
    s0 += a[aOffset + i] * b[bOffset + i];
    s1 += a[aOffset + i + 1] * b[bOffset + i + 1];
    s2 += a[aOffset + i + 2] * b[bOffset + i + 2];
    s3 += a[aOffset + i + 3] * b[bOffset + i + 3];
  }
  for (; i < dimension; i++) s0 += a[aOffset + i] * b[bOffset + i];
  return s0 + s1 + s2 + s3;
}

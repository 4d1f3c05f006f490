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

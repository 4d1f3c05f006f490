import { dotAt } from '../vector-math';
import { ScoreHeap } from './score-heap';
import type { VectorMatrix } from './vector-matrix';

// Module-local binding for the inner loop (see hnsw-index.ts).
const dot = dotAt;

export interface ScoredRow {
  row: number;
  score: number;
}

/**
 * Brute-force cosine top-k over the given rows of a matrix of unit vectors: exact, and for a few thousand
 * rows faster than any index would be once its overheads are counted.
 */
export function exactTopK(matrix: VectorMatrix, query: Float32Array, rows: Iterable<number>, k: number, minScore = -Infinity): ScoredRow[] {
  if (k <= 0) return [];
  const data = matrix.data;
  const dim = matrix.dimension;
  const heap = new ScoreHeap('min');
  for (const row of rows) {
    const score = dot(query, 0, data, row * dim, dim);
    if (score < minScore) continue;
    if (heap.size < k) heap.push(row, score);
    else if (score > heap.peekScore()) {
      heap.pop();
      heap.push(row, score);
    }
  }
  const { ids, scores } = heap.drainDescending();
  return ids.map((row, i) => ({ row, score: scores[i] }));
}

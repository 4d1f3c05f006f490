import { exactTopK, HnswIndex, VectorMatrix } from '../src';

// Building a 20,000-node graph takes several CPU seconds, more on a busy machine.

const N = 20_000;
const DIM = 64;
const QUERIES = 50;
const K = 10;

/** Seeded uniform-on-the-sphere unit vectors (Gaussian components, normalised): the same every run. */
function randomUnitVectors(count: number, dim: number, seed: number): Float32Array[] {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dim);
    let norm = 0;
    for (let i = 0; i < dim; i++) {
      v[i] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      norm += v[i]! * v[i]!;
    }
    for (let i = 0; i < dim; i++) v[i] = v[i]! / Math.sqrt(norm);
    return v;
  });
}

describe('HnswIndex', () => {
  it(`reaches recall@${K} ≥ 0.9 against exact search on ${N} random ${DIM}-dim vectors, with default parameters`, () => {
    const matrix = new VectorMatrix(DIM);
    for (const v of randomUnitVectors(N, DIM, 1)) matrix.append(v);
    const index = new HnswIndex(matrix);
    const started = performance.now();
    for (let row = 0; row < N; row++) index.insert(row);
    const buildMs = performance.now() - started;
    expect(index.size).toBe(N);

    const queries = randomUnitVectors(QUERIES, DIM, 2);
    const allRows = Array.from({ length: N }, (_, i) => i);
    const ef = index.params.efSearch;
    // Warm both paths up before timing them.
    exactTopK(matrix, queries[0]!, allRows, K);
    index.search(queries[0]!, K, ef);

    let t = performance.now();
    const exact = queries.map((q) => exactTopK(matrix, q, allRows, K));
    const exactMs = performance.now() - t;
    t = performance.now();
    const approx = queries.map((q) => index.search(q, K, ef));
    const hnswMs = performance.now() - t;

    let found = 0;
    queries.forEach((_, i) => {
      const truth = new Set(exact[i]!.map((r) => r.row));
      found += approx[i]!.filter((hit) => truth.has(hit.node)).length;
      // Scores are real cosine scores, best first.
      expect(approx[i]![0]!.score).toBeLessThanOrEqual(exact[i]![0]!.score + 1e-9);
      for (let j = 1; j < approx[i]!.length; j++) expect(approx[i]![j - 1]!.score).toBeGreaterThanOrEqual(approx[i]![j]!.score);
    });
    const recall = found / (QUERIES * K);
    // Printed, not asserted: timings on a shared machine are noise; recall is the contract.
    console.log(
      `HNSW M=${index.params.M} efConstruction=${index.params.efConstruction} efSearch=${ef}: build ${(buildMs / 1000).toFixed(1)} s; ` +
        `recall@${K} ${recall.toFixed(3)}; ${QUERIES} queries exact ${exactMs.toFixed(1)} ms vs HNSW ${hnswMs.toFixed(1)} ms ` +
        `(HNSW ${(exactMs / hnswMs).toFixed(1)}× faster)`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it('filters results without losing reachability, and skips what the predicate rejects', () => {
    const matrix = new VectorMatrix(16);
    for (const v of randomUnitVectors(3000, 16, 3)) matrix.append(v);
    const index = new HnswIndex(matrix, { efConstruction: 64 });
    for (let row = 0; row < 3000; row++) index.insert(row);
    const even = (row: number) => row % 2 === 0;
    const evenRows = Array.from({ length: 1500 }, (_, i) => i * 2);
    let found = 0;
    for (const q of randomUnitVectors(20, 16, 4)) {
      const hits = index.search(q, 10, 100, even);
      expect(hits).toHaveLength(10);
      expect(hits.every((h) => even(h.node))).toBe(true);
      const truth = new Set(exactTopK(matrix, q, evenRows, 10).map((r) => r.row));
      found += hits.filter((h) => truth.has(h.node)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('builds the same graph from the same inserts (seeded levels)', () => {
    const vectors = randomUnitVectors(500, 8, 5);
    const results = [0, 1].map(() => {
      const matrix = new VectorMatrix(8);
      for (const v of vectors) matrix.append(v);
      const index = new HnswIndex(matrix, { efConstruction: 32 });
      for (let row = 0; row < 500; row++) index.insert(row);
      return index.search(vectors[0]!, 5, 16);
    });
    expect(results[0]).toEqual(results[1]);
    expect(results[0]![0]).toMatchObject({ node: 0, score: expect.closeTo(1, 5) });
  });

  it('refuses rows it does not have and rows inserted twice', () => {
    const matrix = new VectorMatrix(2);
    matrix.append(new Float32Array([1, 0]));
    const index = new HnswIndex(matrix);
    index.insert(0);
    expect(() => index.insert(0)).toThrow(RangeError);
    expect(() => index.insert(1)).toThrow(RangeError);
    expect(index.search(new Float32Array([0, 1]), 3, 10)).toEqual([{ node: 0, score: 0 }]);
  });
});

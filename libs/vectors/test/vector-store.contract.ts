import { randomUUID } from 'node:crypto';
import { pointId, type VectorPayload, type VectorPoint, type VectorStore } from '../src';

/**
 * Persistence is optional: a store that keeps its points across close() says how to open it again over
 * the same storage, and the persistence tests run.
 */
export type VectorStoreContractOptions =
  { persistent: false } | { persistent: true; reopen: (closed: VectorStore) => Promise<VectorStore> };

const DIM = 4;

/** Unique per test so the suite can also run against a shared server (Qdrant). */
function collectionName(): string {
  return `contract_${randomUUID().slice(0, 8)}`;
}

function point(key: string, vector: number[], payload: VectorPayload): VectorPoint {
  return { id: pointId(key), vector, payload };
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected the call to reject, it resolved');
}

/**
 * The behaviour every VectorStore must have. `make` returns a fresh, open, empty store; the suite closes it.
 */
export function describeVectorStoreContract(
  name: string,
  make: () => Promise<VectorStore>,
  options: VectorStoreContractOptions = { persistent: false },
): void {
  describe(`VectorStore contract: ${name}`, () => {
    let store: VectorStore;
    let col: string;

    beforeEach(async () => {
      store = await make();
      col = collectionName();
      await store.ensureCollection(col, DIM);
    });

    afterEach(async () => {
      await store.close();
    });

    describe('collections', () => {
      it('ensureCollection is idempotent for the same dimension', async () => {
        await store.upsert(col, [point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'evidence' })]);
        await store.ensureCollection(col, DIM);
        expect(await store.count(col)).toBe(1);
      });

      it('ensureCollection called at once for a new collection (workers of several replicas) creates it once, without an error', async () => {
        const fresh = collectionName();
        await Promise.all(Array.from({ length: 5 }, () => store.ensureCollection(fresh, DIM)));
        await store.upsert(fresh, [point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'claim' })]);
        expect(await store.count(fresh)).toBe(1);
        expect((await errorOf(store.ensureCollection(fresh, DIM + 1))).code).toBe('vector_dimension_mismatch');
      });

      it('ensureCollection with another dimension fails, naming both', async () => {
        const err = await errorOf(store.ensureCollection(col, DIM + 3));
        expect(err.code).toBe('vector_dimension_mismatch');
        expect(err.message).toContain(String(DIM));
        expect(err.message).toContain(String(DIM + 3));
      });

      it('refuses to use a collection that was never created', async () => {
        const missing = collectionName();
        expect((await errorOf(store.upsert(missing, [point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'k' })]))).code).toBe(
          'vector_collection_not_found',
        );
        expect((await errorOf(store.search(missing, [1, 0, 0, 0], { filter: { tenantId: 't1' }, limit: 1 }))).code).toBe(
          'vector_collection_not_found',
        );
        expect((await errorOf(store.count(missing))).code).toBe('vector_collection_not_found');
      });
    });

    describe('upsert', () => {
      it('is idempotent by id: the same points twice leave one copy each', async () => {
        const points = [
          point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'evidence' }),
          point('b', [0, 1, 0, 0], { tenantId: 't1', kind: 'evidence' }),
        ];
        await store.upsert(col, points);
        await store.upsert(col, points);
        expect(await store.count(col)).toBe(2);
        const hits = await store.search(col, [1, 0, 0, 0], { filter: { tenantId: 't1' }, limit: 10 });
        expect(hits.map((h) => h.id)).toEqual([pointId('a'), pointId('b')]);
      });

      it('replaces the vector and payload of an existing id', async () => {
        await store.upsert(col, [point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'evidence', version: 1 })]);
        await store.upsert(col, [point('a', [0, 0, 1, 0], { tenantId: 't1', kind: 'claim', version: 2 })]);
        expect(await store.count(col)).toBe(1);
        const [hit] = await store.search(col, [0, 0, 1, 0], { filter: { tenantId: 't1' }, limit: 5 });
        expect(hit!.id).toBe(pointId('a'));
        expect(hit!.score).toBeCloseTo(1, 5);
        expect(hit!.payload).toMatchObject({ tenantId: 't1', kind: 'claim', version: 2 });
        expect(await store.count(col, { tenantId: 't1', kind: 'evidence' })).toBe(0);
      });

      it('keeps the last of duplicate ids within one batch', async () => {
        await store.upsert(col, [
          point('a', [1, 0, 0, 0], { tenantId: 't1', kind: 'k', n: 1 }),
          point('a', [0, 1, 0, 0], { tenantId: 't1', kind: 'k', n: 2 }),
        ]);
        expect(await store.count(col)).toBe(1);
        const [hit] = await store.search(col, [0, 1, 0, 0], { filter: { tenantId: 't1' }, limit: 1 });
        expect(hit!.payload.n).toBe(2);
        expect(hit!.score).toBeCloseTo(1, 5);
      });

      it('round-trips string, number and boolean payload fields and accepts Float32Array vectors', async () => {
        const payload = { tenantId: 't1', runId: 'r1', kind: 'evidence', text: 'naïve café ✓', offset: 42, weight: 0.25, verified: true };
        await store.upsert(col, [{ id: pointId('a'), vector: new Float32Array([0.5, 0.5, 0, 0]), payload }]);
        const [hit] = await store.search(col, [1, 1, 0, 0], { filter: { tenantId: 't1' }, limit: 1 });
        expect(hit!.payload).toEqual(payload);
      });

      it('serialises concurrent writes: none is lost', async () => {
        await Promise.all(
          Array.from({ length: 25 }, (_, i) => store.upsert(col, [point(`p${i}`, [1, i, 0, 0], { tenantId: 't1', kind: 'k' })])),
        );
        expect(await store.count(col)).toBe(25);
      });
    });

    describe('search', () => {
      const vectors: Record<string, number[]> = {
        same: [1, 0, 0, 0],
        near: [0.9, 0.1, 0, 0],
        mid: [0.5, 0.5, 0.2, 0],
        far: [0, 1, 0, 0],
        opposite: [-1, 0, 0, 0],
      };

      beforeEach(async () => {
        await store.upsert(
          col,
          Object.entries(vectors).map(([key, v]) => point(key, v, { tenantId: 't1', kind: 'evidence' })),
        );
      });

      it('returns cosine scores, best first, up to the limit', async () => {
        const query = [2, 0, 0, 0]; // cosine ignores length
        const hits = await store.search(col, query, { filter: { tenantId: 't1' }, limit: 3 });
        expect(hits.map((h) => h.id)).toEqual([pointId('same'), pointId('near'), pointId('mid')]);
        for (const hit of hits) {
          const key = Object.keys(vectors).find((k) => pointId(k) === hit.id)!;
          expect(hit.score).toBeCloseTo(cosine(query, vectors[key]!), 5);
        }
        const all = await store.search(col, query, { filter: { tenantId: 't1' }, limit: 10 });
        expect(all).toHaveLength(5);
        expect(all.at(-1)!.id).toBe(pointId('opposite'));
        expect(all.at(-1)!.score).toBeCloseTo(-1, 5);
        for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
      });

      it('leaves out hits below minScore', async () => {
        const hits = await store.search(col, [1, 0, 0, 0], { filter: { tenantId: 't1' }, limit: 10, minScore: 0.8 });
        expect(hits.map((h) => h.id)).toEqual([pointId('same'), pointId('near')]);
      });

      it('refuses a search without a tenant', async () => {
        const err = await errorOf(store.search(col, [1, 0, 0, 0], { filter: {} as { tenantId: string }, limit: 5 }));
        expect(err.code).toBe('validation_failed');
      });

      it('refuses a query vector of the wrong dimension, naming both', async () => {
        const err = await errorOf(store.search(col, [1, 0, 0], { filter: { tenantId: 't1' }, limit: 5 }));
        expect(err.code).toBe('vector_dimension_mismatch');
        expect(err.message).toMatch(new RegExp(`\\b${DIM}\\b`));
        expect(err.message).toMatch(/\b3\b/);
      });

      it("searchMany answers each query as search does, in the queries' order", async () => {
        const queries = [
          { vector: [1, 0, 0, 0], opts: { filter: { tenantId: 't1' }, limit: 2 } },
          { vector: [0, 1, 0, 0], opts: { filter: { tenantId: 't1', kind: 'evidence' }, limit: 10, minScore: 0.5 } },
          { vector: [-1, 0, 0, 0], opts: { filter: { tenantId: 't1' }, limit: 1 } },
          { vector: [1, 0, 0, 0], opts: { filter: { tenantId: 't2' }, limit: 5 } },
          { vector: [0.5, 0.5, 0.2, 0], opts: { filter: { tenantId: 't1', kind: 'claim' }, limit: 5 } },
        ];
        const many = await store.searchMany(col, queries);
        const one = await Promise.all(queries.map((q) => store.search(col, q.vector, q.opts)));
        expect(many).toEqual(one);
        expect(many.map((hits) => hits.map((h) => h.id))).toEqual([
          [pointId('same'), pointId('near')],
          [pointId('far'), pointId('mid')],
          [pointId('opposite')],
          [],
          [],
        ]);
        expect(await store.searchMany(col, [])).toEqual([]);
      });

      it('searchMany refuses the whole batch for one bad query: no tenant, or the wrong dimension', async () => {
        const good = { vector: [1, 0, 0, 0], opts: { filter: { tenantId: 't1' }, limit: 1 } };
        const noTenant = await errorOf(
          store.searchMany(col, [good, { vector: [1, 0, 0, 0], opts: { filter: {} as { tenantId: string }, limit: 1 } }]),
        );
        expect(noTenant.code).toBe('validation_failed');
        expect(noTenant.message).toMatch(/query\[1\]/);
        const wrongDimension = await errorOf(store.searchMany(col, [good, good, { vector: [1, 0, 0], opts: good.opts }]));
        expect(wrongDimension.code).toBe('vector_dimension_mismatch');
      });
    });

    describe('dimension mismatch on upsert', () => {
      it('fails naming both dimensions and writes nothing of the batch', async () => {
        const err = await errorOf(
          store.upsert(col, [
            point('ok', [1, 0, 0, 0], { tenantId: 't1', kind: 'k' }),
            point('bad', [1, 0, 0, 0, 0, 0], { tenantId: 't1', kind: 'k' }),
          ]),
        );
        expect(err.code).toBe('vector_dimension_mismatch');
        expect(err.message).toMatch(new RegExp(`\\b${DIM}\\b`));
        expect(err.message).toMatch(/\b6\b/);
        expect(await store.count(col)).toBe(0);
      });
    });

    describe('tenant isolation', () => {
      beforeEach(async () => {
        // Identical vectors in both tenants: only the filter can tell them apart.
        await store.upsert(col, [
          point('t1-a', [1, 0, 0, 0], { tenantId: 't1', kind: 'evidence' }),
          point('t1-b', [0, 1, 0, 0], { tenantId: 't1', kind: 'evidence' }),
          point('t2-a', [1, 0, 0, 0], { tenantId: 't2', kind: 'evidence' }),
          point('t2-b', [0, 1, 0, 0], { tenantId: 't2', kind: 'evidence' }),
          point('t2-c', [0, 0, 1, 0], { tenantId: 't2', kind: 'evidence' }),
        ]);
      });

      it('search sees only the filtered tenant', async () => {
        const hits = await store.search(col, [1, 0, 0, 0], { filter: { tenantId: 't1' }, limit: 10 });
        expect(hits.map((h) => h.id).sort()).toEqual([pointId('t1-a'), pointId('t1-b')].sort());
        expect(hits.every((h) => h.payload.tenantId === 't1')).toBe(true);
        expect(await store.search(col, [1, 0, 0, 0], { filter: { tenantId: 't3' }, limit: 10 })).toEqual([]);
      });

      it('count counts one tenant, or everything without a filter', async () => {
        expect(await store.count(col, { tenantId: 't1' })).toBe(2);
        expect(await store.count(col, { tenantId: 't2' })).toBe(3);
        expect(await store.count(col)).toBe(5);
      });

      it('delete removes only the filtered tenant and says how many', async () => {
        expect(await store.delete(col, { tenantId: 't2' })).toBe(3);
        expect(await store.count(col, { tenantId: 't2' })).toBe(0);
        expect(await store.count(col, { tenantId: 't1' })).toBe(2);
        expect(await store.delete(col, { tenantId: 't2' })).toBe(0);
        expect(await store.search(col, [1, 0, 0, 0], { filter: { tenantId: 't2' }, limit: 10 })).toEqual([]);
      });

      it('refuses a delete without a tenant', async () => {
        expect((await errorOf(store.delete(col, {} as { tenantId: string }))).code).toBe('validation_failed');
        expect(await store.count(col)).toBe(5);
      });
    });

    describe('run and kind filters', () => {
      beforeEach(async () => {
        await store.upsert(col, [
          point('r1-ev', [1, 0, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'evidence' }),
          point('r1-cl', [1, 0.1, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'claim' }),
          point('r2-ev', [1, 0.2, 0, 0], { tenantId: 't1', runId: 'r2', kind: 'evidence' }),
          point('r2-cl', [1, 0.3, 0, 0], { tenantId: 't1', runId: 'r2', kind: 'claim' }),
          point('norun-ev', [1, 0.4, 0, 0], { tenantId: 't1', kind: 'evidence' }),
          point('other-r1', [1, 0, 0, 0], { tenantId: 't2', runId: 'r1', kind: 'evidence' }),
        ]);
      });

      const ids = (hits: { id: string }[]) => hits.map((h) => h.id).sort();
      const q = [1, 0, 0, 0];

      it('filters search by run, by kind, and by both', async () => {
        expect(ids(await store.search(col, q, { filter: { tenantId: 't1', runId: 'r1' }, limit: 10 }))).toEqual(
          [pointId('r1-ev'), pointId('r1-cl')].sort(),
        );
        expect(ids(await store.search(col, q, { filter: { tenantId: 't1', kind: 'evidence' }, limit: 10 }))).toEqual(
          [pointId('r1-ev'), pointId('r2-ev'), pointId('norun-ev')].sort(),
        );
        expect(ids(await store.search(col, q, { filter: { tenantId: 't1', runId: 'r2', kind: 'claim' }, limit: 10 }))).toEqual([
          pointId('r2-cl'),
        ]);
      });

      it('filters count by run and kind', async () => {
        expect(await store.count(col, { tenantId: 't1', runId: 'r1' })).toBe(2);
        expect(await store.count(col, { tenantId: 't1', kind: 'claim' })).toBe(2);
        expect(await store.count(col, { tenantId: 't1', runId: 'r2', kind: 'evidence' })).toBe(1);
        expect(await store.count(col, { tenantId: 't2', runId: 'r1' })).toBe(1);
      });

      it('deletes one run of one tenant only', async () => {
        expect(await store.delete(col, { tenantId: 't1', runId: 'r1' })).toBe(2);
        expect(await store.count(col, { tenantId: 't1' })).toBe(3);
        expect(await store.count(col, { tenantId: 't2', runId: 'r1' })).toBe(1);
      });

      it('deletes one kind within a run', async () => {
        expect(await store.delete(col, { tenantId: 't1', runId: 'r2', kind: 'claim' })).toBe(1);
        expect(ids(await store.search(col, q, { filter: { tenantId: 't1', runId: 'r2' }, limit: 10 }))).toEqual([pointId('r2-ev')]);
      });
    });

    if (options.persistent) {
      describe('persistence', () => {
        it('keeps collections, points, replacements and deletions across close and reopen', async () => {
          await store.upsert(col, [
            point('a', [1, 0, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'evidence', note: 'first' }),
            point('b', [0, 1, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'evidence' }),
            point('c', [0, 0, 1, 0], { tenantId: 't2', kind: 'claim' }),
          ]);
          await store.upsert(col, [point('a', [0.6, 0.8, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'evidence', note: 'second' })]);
          expect(await store.delete(col, { tenantId: 't2' })).toBe(1);
          const before = await store.search(col, [1, 1, 0, 0], { filter: { tenantId: 't1' }, limit: 10 });
          await store.close();

          store = await options.reopen(store);
          expect(await store.count(col)).toBe(2);
          expect(await store.count(col, { tenantId: 't2' })).toBe(0);
          const after = await store.search(col, [1, 1, 0, 0], { filter: { tenantId: 't1' }, limit: 10 });
          expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
          after.forEach((hit, i) => expect(hit.score).toBeCloseTo(before[i]!.score, 5));
          expect(after.find((h) => h.id === pointId('a'))!.payload.note).toBe('second');
          expect((await errorOf(store.ensureCollection(col, DIM + 1))).code).toBe('vector_dimension_mismatch');
          // Writes keep working after a reopen, and are idempotent with what was there.
          await store.upsert(col, [
            point('b', [0, 1, 0, 0], { tenantId: 't1', runId: 'r1', kind: 'evidence' }),
            point('d', [0, 0, 0, 1], { tenantId: 't1', kind: 'k' }),
          ]);
          expect(await store.count(col)).toBe(3);
        });
      });
    }
  });
}

import { mkdtemp, readdir, readFile, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedVectorStore, pointId, type EmbeddedVectorStoreOptionsInput, type VectorPoint } from '../src';
import { describeVectorStoreContract } from './vector-store.contract';

// The search-strategy tests write 7,500 points and build a graph: seconds of CPU, more on a busy machine.

const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dossier-vectors-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describeVectorStoreContract('EmbeddedVectorStore', async () => EmbeddedVectorStore.open({ directory: await tempDir() }), {
  persistent: true,
  reopen: async (closed) => EmbeddedVectorStore.open({ directory: (closed as EmbeddedVectorStore).directory }),
});

/** Seeded uniform unit vectors: the same every run. */
function randomVectors(count: number, dim: number, seed: number): Float32Array[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) v[i] = next() * 2 - 1;
    return v;
  });
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected the call to reject, it resolved');
}

describe('EmbeddedVectorStore', () => {
  let dir: string;
  let store: EmbeddedVectorStore | undefined;

  async function open(extra: Partial<EmbeddedVectorStoreOptionsInput> = {}): Promise<EmbeddedVectorStore> {
    store = await EmbeddedVectorStore.open({ directory: dir, ...extra });
    return store;
  }

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  const file = (collection: string) => join(dir, `${collection}.vectors.jsonl`);
  const p = (key: string, vector: number[], tenantId = 't1', extra: Record<string, string | number> = {}): VectorPoint => ({
    id: pointId(key),
    vector,
    payload: { tenantId, kind: 'evidence', ...extra },
  });

  describe('boundaries', () => {
    it('refuses ids that are not UUIDs, bad payloads and bad collection names', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      expect((await errorOf(s.upsert('c', [{ id: 'evidence-1', vector: [1, 0], payload: { tenantId: 't', kind: 'k' } }]))).code).toBe(
        'validation_failed',
      );
      expect((await errorOf(s.upsert('c', [{ id: pointId('x'), vector: [1, 0], payload: { tenantId: '', kind: 'k' } }]))).code).toBe(
        'validation_failed',
      );
      expect(
        (await errorOf(s.upsert('c', [{ id: pointId('x'), vector: [1, Number.NaN], payload: { tenantId: 't', kind: 'k' } }]))).code,
      ).toBe('validation_failed');
      expect((await errorOf(s.ensureCollection('../escape', 2))).code).toBe('validation_failed');
      expect(await s.count('c')).toBe(0);
    });

    it('treats ids case-insensitively, as UUIDs are', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [{ id: pointId('x').toUpperCase(), vector: [1, 0], payload: { tenantId: 't', kind: 'k' } }]);
      await s.upsert('c', [{ id: pointId('x'), vector: [1, 0], payload: { tenantId: 't', kind: 'k' } }]);
      expect(await s.count('c')).toBe(1);
      const [hit] = await s.search('c', [1, 0], { filter: { tenantId: 't' }, limit: 1 });
      expect(hit!.id).toBe(pointId('x'));
    });

    it('hands out payload copies', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0])]);
      const [hit] = await s.search('c', [1, 0], { filter: { tenantId: 't1' }, limit: 1 });
      hit!.payload.tenantId = 'someone-else';
      expect(await s.count('c', { tenantId: 't1' })).toBe(1);
      const [again] = await s.search('c', [1, 0], { filter: { tenantId: 't1' }, limit: 1 });
      expect(again!.payload.tenantId).toBe('t1');
    });

    it('scores a zero vector 0 rather than NaN', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('zero', [0, 0]), p('a', [1, 0])]);
      const hits = await s.search('c', [1, 0], { filter: { tenantId: 't1' }, limit: 5 });
      expect(hits.map((h) => h.score)).toEqual([expect.closeTo(1, 6), 0]);
    });

    it('rejects every call after close', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.close();
      expect((await errorOf(s.search('c', [1, 0], { filter: { tenantId: 't1' }, limit: 1 }))).code).toBe('vector_store_closed');
      expect((await errorOf(s.upsert('c', [p('a', [1, 0])]))).code).toBe('vector_store_closed');
      await s.close(); // idempotent
    });
  });

  describe('directory lock', () => {
    it('refuses a second open of the same directory until the first is closed', async () => {
      const first = await open();
      expect((await errorOf(EmbeddedVectorStore.open({ directory: dir }))).code).toBe('vector_store_locked');
      await first.close();
      const second = await open();
      await second.ensureCollection('c', 2);
    });

    it('refuses a directory held by another live process, takes over one left by a dead process', async () => {
      // pid 1 is always running (and usually not ours to signal: EPERM still means alive).
      await writeFile(join(dir, 'LOCK'), '1\n');
      expect((await errorOf(EmbeddedVectorStore.open({ directory: dir }))).code).toBe('vector_store_locked');
      // 2^22 + 1 is above Linux's default pid_max, so no process has it.
      await writeFile(join(dir, 'LOCK'), `${2 ** 22 + 1}\n`);
      const s = await open();
      expect((await readFile(join(dir, 'LOCK'), 'utf8')).trim()).toBe(String(process.pid));
      await s.close();
      store = undefined;
      await expect(stat(join(dir, 'LOCK'))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });

  describe('log file', () => {
    it('cuts off a torn last line and keeps appending whole records after it', async () => {
      let s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0]), p('b', [0, 1])]);
      await s.close();
      const intact = (await stat(file('c'))).size;
      // A crash in the middle of an append, longer than the record that will follow it.
      await appendFile(file('c'), `{"op":"upsert","id":"${pointId('torn')}","payload":{"tenantId":"t1","kind":"${'x'.repeat(2000)}`);
      s = await open();
      expect(await s.count('c')).toBe(2);
      expect((await stat(file('c'))).size).toBe(intact);
      await s.upsert('c', [p('c', [1, 1])]);
      await s.close();
      const lines = (await readFile(file('c'), 'utf8')).split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.slice(0, -1).every((line) => JSON.parse(line) !== null)).toBe(true);
      s = await open();
      expect(await s.count('c')).toBe(3);
    });

    it('refuses a file damaged before its tail', async () => {
      let s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0])]);
      await s.upsert('c', [p('b', [0, 1])]);
      await s.close();
      const lines = (await readFile(file('c'), 'utf8')).split('\n');
      lines[1] = lines[1]!.slice(0, 20);
      await writeFile(file('c'), lines.join('\n'));
      const err = await errorOf(EmbeddedVectorStore.open({ directory: dir }));
      expect(err.code).toBe('vector_store_corrupt');
      expect(err.message).toContain(':2:');
      // The failed open released the directory.
      await rm(file('c'));
      s = await open();
      expect(await errorOf(s.count('c'))).toMatchObject({ code: 'vector_collection_not_found' });
    });

    it('ignores the temporary file of a compaction cut short', async () => {
      let s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0])]);
      await s.close();
      await writeFile(`${file('c')}.tmp`, '{"format":"dossier-vectors","version":1,"dimension":2}\n');
      s = await open();
      expect(await s.count('c')).toBe(1);
      expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    });

    it('does not grow when the same points are upserted again', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0]), p('b', [0, 1])]);
      const size = (await stat(file('c'))).size;
      await s.upsert('c', [p('a', [1, 0]), p('b', [0, 1])]);
      expect((await stat(file('c'))).size).toBe(size);
    });

    it('compacts rows and file once dead entries outnumber live ones, without losing points', async () => {
      const s = await open({ compaction: { minGarbage: 50, garbageRatio: 1 } });
      await s.ensureCollection('c', 8);
      const vectors = randomVectors(120, 8, 7);
      await s.upsert(
        'c',
        vectors.slice(0, 20).map((v, i) => ({ id: pointId(`p${i}`), vector: v, payload: { tenantId: 't1', kind: 'k', round: 0 } })),
      );
      for (let round = 1; round <= 5; round++) {
        await s.upsert(
          'c',
          vectors
            .slice(round * 20, round * 20 + 20)
            .map((v, i) => ({ id: pointId(`p${i}`), vector: v, payload: { tenantId: 't1', kind: 'k', round } })),
        );
      }
      const stats = s.stats('c');
      expect(stats.points).toBe(20);
      expect(stats.deadRows).toBeLessThan(50);
      expect(stats.logRecords).toBeLessThan(70);
      const lines = (await readFile(file('c'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(stats.logRecords + 1);
      const [hit] = await s.search('c', vectors[100]!, { filter: { tenantId: 't1' }, limit: 1 });
      expect(hit).toMatchObject({ id: pointId('p0'), payload: { round: 5 } });
      await s.close();
      const reopened = await open();
      expect(await reopened.count('c')).toBe(20);
      const [again] = await reopened.search('c', vectors[100]!, { filter: { tenantId: 't1' }, limit: 1 });
      expect(again).toMatchObject({ id: pointId('p0'), payload: { round: 5 } });
    });

    it('compact() folds the log down to one line per live point', async () => {
      const s = await open();
      await s.ensureCollection('c', 2);
      await s.upsert('c', [p('a', [1, 0]), p('b', [0, 1]), p('c', [1, 1])]);
      await s.upsert('c', [p('a', [1, 2])]);
      await s.delete('c', { tenantId: 't1', kind: 'nothing' });
      await s.upsert('c', [p('d', [2, 1], 't2')]);
      expect(await s.delete('c', { tenantId: 't2' })).toBe(1);
      await s.compact('c');
      const lines = (await readFile(file('c'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(4);
      expect(s.stats('c')).toMatchObject({ points: 3, deadRows: 0, logRecords: 3 });
    });
  });

  describe('search strategy', () => {
    const DIM = 32;
    const big = 6000;
    const small = 1500;
    let vectors: Float32Array[];
    let s: EmbeddedVectorStore;

    beforeEach(async () => {
      vectors = randomVectors(big + small, DIM, 11);
      s = await open({ fsync: false, hnsw: { efConstruction: 64 } });
      await s.ensureCollection('c', DIM);
      await s.upsert(
        'c',
        vectors.map((v, i) => ({
          id: pointId(`v${i}`),
          vector: v,
          payload: i < big ? { tenantId: 'big', runId: `r${i % 3}`, kind: 'evidence', i } : { tenantId: 'small', kind: 'evidence', i },
        })),
      );
    });

    function exactIds(query: Float32Array, tenantId: string, limit: number): string[] {
      // Ground truth straight from the vectors, independent of the store.
      const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
      const scored = vectors
        .map((v, i) => ({ i, score: v.reduce((a, x, j) => a + x * query[j]!, 0) / (norm(v) * norm(query)) }))
        .filter(({ i }) => (tenantId === 'big' ? i < big : i >= big))
        .sort((a, b) => b.score - a.score);
      return scored.slice(0, limit).map(({ i }) => pointId(`v${i}`));
    }

    it('scans small candidate sets exactly and walks the graph for large ones, filtering either way', async () => {
      const queries = randomVectors(10, DIM, 99);
      // First large search: answered exactly while the graph is built in the background.
      await s.search('c', queries[0]!, { filter: { tenantId: 'big' }, limit: 10 });
      expect(s.stats('c').searches).toEqual({ exact: 1, graph: 0, fallback: 0 });
      await s.buildIndex('c');
      expect(s.stats('c')).toMatchObject({ indexReady: true, indexedRows: big + small });

      let overlap = 0;
      for (const q of queries) {
        const hits = await s.search('c', q, { filter: { tenantId: 'big' }, limit: 10 });
        expect(hits).toHaveLength(10);
        expect(hits.every((h) => h.payload.tenantId === 'big')).toBe(true);
        const truth = new Set(exactIds(q, 'big', 10));
        overlap += hits.filter((h) => truth.has(h.id)).length;
      }
      expect(overlap / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
      expect(s.stats('c').searches.graph).toBe(queries.length);

      // 1,500 candidates: below the exact threshold, so exact, and exactly right.
      const smallHits = await s.search('c', queries[1]!, { filter: { tenantId: 'small' }, limit: 10 });
      expect(smallHits.map((h) => h.id)).toEqual(exactIds(queries[1]!, 'small', 10));
      expect(s.stats('c').searches.exact).toBe(2);
    });

    it('scans exactly when the filter selects a small share of a large collection', async () => {
      const q = randomVectors(1, DIM, 5)[0]!;
      const strict = await open2({ exactSearchBelow: 1000, minGraphSelectivity: 0.3 });
      await strict.buildIndex('c');
      // "small" is 1,500 of 7,500 rows: 20%, under the 30% floor, so exact although above 1,000.
      const hits = await strict.search('c', q, { filter: { tenantId: 'small' }, limit: 10 });
      expect(hits.map((h) => h.id)).toEqual(exactIds(q, 'small', 10));
      expect(strict.stats('c').searches).toEqual({ exact: 1, graph: 0, fallback: 0 });
      // "big" run r0 is 2,000 rows (27%): also exact; the whole "big" tenant (80%) takes the graph.
      await strict.search('c', q, { filter: { tenantId: 'big', runId: 'r0' }, limit: 10 });
      await strict.search('c', q, { filter: { tenantId: 'big' }, limit: 10 });
      expect(strict.stats('c').searches).toEqual({ exact: 2, graph: 1, fallback: 0 });
    });

    it('stays exact about writes made after the graph was built: new rows, replaced rows, deleted rows', async () => {
      await s.buildIndex('c');
      const newcomers = randomVectors(1000, DIM, 1234);
      const fresh = newcomers[999]!;
      const moved = randomVectors(1, DIM, 4321)[0]!;
      // New points: more than one indexing slice's worth, so the last ones are not in the graph yet when
      // the search runs; they are found through the exact scan of the unindexed tail.
      await s.upsert(
        'c',
        newcomers.map((v, i) => ({
          id: pointId(i === 999 ? 'fresh' : `new${i}`),
          vector: v,
          payload: { tenantId: 'big', kind: 'evidence' },
        })),
      );
      expect(s.stats('c').indexedRows).toBeLessThan(big + small + 1000);
      const [hit] = await s.search('c', fresh, { filter: { tenantId: 'big' }, limit: 1 });
      expect(hit).toMatchObject({ id: pointId('fresh'), score: expect.closeTo(1, 5) });
      await s.buildIndex('c');
      // A replaced point: its old row stays in the graph but must never be returned.
      await s.upsert('c', [{ id: pointId('v0'), vector: moved, payload: { tenantId: 'big', kind: 'evidence', i: 0 } }]);
      const [movedHit] = await s.search('c', moved, { filter: { tenantId: 'big' }, limit: 1 });
      expect(movedHit).toMatchObject({ id: pointId('v0'), score: expect.closeTo(1, 5) });
      const nearOld = await s.search('c', vectors[0]!, { filter: { tenantId: 'big' }, limit: 20 });
      expect(nearOld.filter((h) => h.id === pointId('v0')).every((h) => h.score < 0.999)).toBe(true);
      expect(new Set(nearOld.map((h) => h.id)).size).toBe(nearOld.length);
      // A deleted tenant: its rows stay in the graph as dead rows, invisible to everyone.
      expect(await s.delete('c', { tenantId: 'small' })).toBe(small);
      expect(await s.search('c', vectors[big]!, { filter: { tenantId: 'small' }, limit: 5 })).toEqual([]);
      const bigHits = await s.search('c', vectors[big]!, { filter: { tenantId: 'big' }, limit: 50 });
      expect(bigHits).toHaveLength(50);
      expect(bigHits.every((h) => h.payload.tenantId === 'big')).toBe(true);
      expect(s.stats('c').searches.graph).toBe(4);
      expect(s.stats('c').searches.fallback).toBe(0);
    });

    /** A second store over the same data with other options: the first is closed to free the directory. */
    async function open2(options: Partial<EmbeddedVectorStoreOptionsInput>): Promise<EmbeddedVectorStore> {
      await s.close();
      return open({ fsync: false, hnsw: { efConstruction: 64 }, ...options });
    }
  });
});

import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { LanceVectorStore, pointId, type LanceVectorStoreOptionsInput, type VectorPoint } from '../src';
import { describeVectorStoreContract } from './vector-store.contract';

const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dossier-lance-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describeVectorStoreContract('LanceVectorStore', async () => LanceVectorStore.open({ directory: await tempDir() }), {
  persistent: true,
  reopen: async (closed) => LanceVectorStore.open({ directory: (closed as LanceVectorStore).directory }),
});

/** Seeded vectors with components in [-1, 1): the same every run. */
function randomVectors(count: number, dim: number, seed: number): number[][] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => Array.from({ length: dim }, () => next() * 2 - 1));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
}

describe('LanceVectorStore', () => {
  let dir: string;
  const stores: LanceVectorStore[] = [];

  async function open(extra: Partial<LanceVectorStoreOptionsInput> = {}): Promise<LanceVectorStore> {
    const store = await LanceVectorStore.open({ directory: dir, ...extra });
    stores.push(store);
    return store;
  }

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  const p = (key: string, vector: number[], tenantId = 't1', extra: Record<string, string | number> = {}): VectorPoint => ({
    id: pointId(key),
    vector,
    payload: { tenantId, kind: 'evidence', ...extra },
  });

  it('quotes filter values: a tenant id written as SQL selects that tenant only', async () => {
    const s = await open();
    await s.ensureCollection('c', 2);
    const hostile = ["it's", "' OR '1'='1", "x\\' OR 1=1 --", 'plain'];
    await s.upsert(
      'c',
      hostile.map((tenantId, i) => p(`k${i}`, [1, i], tenantId)),
    );
    for (const [i, tenantId] of hostile.entries()) {
      expect(await s.count('c', { tenantId })).toBe(1);
      const hits = await s.search('c', [1, 0], { filter: { tenantId, runId: "r' OR 'a'='a" }, limit: 10 });
      expect(hits).toEqual([]);
      const own = await s.search('c', [1, 0], { filter: { tenantId }, limit: 10 });
      expect(own.map((h) => h.id)).toEqual([pointId(`k${i}`)]);
    }
    expect(await s.delete('c', { tenantId: "' OR '1'='1" })).toBe(1);
    expect(await s.count('c')).toBe(3);
  });

  it('two stores over one directory see each other’s writes at once', async () => {
    const a = await open();
    const b = await open();
    await a.ensureCollection('c', 2);
    await b.ensureCollection('c', 2);
    await a.upsert('c', [p('x', [1, 0])]);
    expect(await b.count('c')).toBe(1);
    await b.upsert('c', [p('x', [0, 1], 't1', { by: 'b' })]);
    const [hit] = await a.search('c', [0, 1], { filter: { tenantId: 't1' }, limit: 1 });
    expect(hit).toMatchObject({ id: pointId('x'), score: expect.closeTo(1, 5), payload: { by: 'b' } });
    expect(await a.delete('c', { tenantId: 't1' })).toBe(1);
    expect(await b.count('c')).toBe(0);
  });

  it('refuses a table in the directory that is not a Dossier collection', async () => {
    const db = await connect(dir);
    (await db.createTable('foreign', [{ name: 'x', embedding: [1, 2] }])).close();
    db.close();
    const s = await open();
    await expect(s.ensureCollection('foreign', 2)).rejects.toMatchObject({ code: 'vector_store_corrupt' });
    await expect(s.count('foreign')).rejects.toMatchObject({ code: 'vector_store_corrupt' });
  });

  it('refuses calls once closed', async () => {
    const s = await open();
    await s.ensureCollection('c', 2);
    await s.close();
    await expect(s.count('c')).rejects.toMatchObject({ code: 'vector_store_closed' });
    await expect(s.upsert('c', [p('a', [1, 0])])).rejects.toMatchObject({ code: 'vector_store_closed' });
  });

  describe('index policy (thresholds scaled down from 50,000 rows)', () => {
    const DIM = 16;
    const BIG = 400;
    const SMALL = 30;
    let vectors: number[][];

    beforeEach(() => {
      vectors = randomVectors(BIG + SMALL + 100, DIM, 7);
    });

    const points = (from: number, to: number, tenantId: string) =>
      vectors
        .slice(from, to)
        .map((v, i) => ({ id: pointId(`v${from + i}`), vector: v, payload: { tenantId, kind: 'evidence', i: from + i } }));

    /** The true top ids of a tenant, straight from the vectors. */
    function exactIds(query: number[], from: number, to: number, limit: number): string[] {
      return vectors
        .slice(from, to)
        .map((v, i) => ({ id: pointId(`v${from + i}`), score: cosine(query, v) }))
        .sort((x, y) => y.score - x.score)
        .slice(0, limit)
        .map((h) => h.id);
    }

    async function filled(extra: Partial<LanceVectorStoreOptionsInput>): Promise<LanceVectorStore> {
      const s = await open({ indexAboveRows: 300, ...extra });
      await s.ensureCollection('c', DIM);
      // One write, so that the build (after it, in the background) indexes every row: the tests count what follows.
      await s.upsert('c', [...points(0, BIG, 'big'), ...points(BIG, BIG + SMALL, 'small')]);
      await s.maintenance.idle();
      return s;
    }

    it('searches exactly below the threshold, builds the index in the background above it, and searches a small filtered set exactly', async () => {
      const s = await filled({});
      expect(s.maintenance.stats).toMatchObject({ done: { index: 1 }, failures: 0 });
      const db = await connect(dir);
      const table = await db.openTable('c');
      expect((await table.listIndices()).map((i) => [i.indexType, i.columns])).toEqual([['IvfHnswSq', ['vector']]]);
      table.close();
      db.close();

      // The whole "big" tenant (400 rows ≥ 300): the index, probed wide and re-ranked exactly.
      for (const q of [vectors[3]!, vectors[250]!]) {
        const hits = await s.search('c', q, { filter: { tenantId: 'big' }, limit: 5 });
        expect(hits[0]).toMatchObject({ id: pointId(`v${vectors.indexOf(q)}`), score: expect.closeTo(1, 5) });
        expect(hits.every((h) => h.payload.tenantId === 'big')).toBe(true);
      }
      expect(s.searches).toEqual({ exact: 0, indexed: 2 });
      // The "small" tenant (30 rows): exact, and exactly the true top 10.
      const q = randomVectors(1, DIM, 99)[0]!;
      const small = await s.search('c', q, { filter: { tenantId: 'small' }, limit: 10 });
      expect(small.map((h) => h.id)).toEqual(exactIds(q, BIG, BIG + SMALL, 10));
      expect(s.searches).toEqual({ exact: 1, indexed: 2 });
    });

    it('folds rows written after the build into the index, and finds them before that', async () => {
      const s = await filled({ reindexAfterRows: 50 });
      await s.upsert('c', points(BIG + SMALL, BIG + SMALL + 40, 'big'));
      await s.maintenance.idle();
      expect(s.maintenance.stats.done.reindex).toBe(0);
      // 40 unindexed rows: searched by LanceDB alongside the index.
      const fresh = vectors[BIG + SMALL + 39]!;
      const [hit] = await s.search('c', fresh, { filter: { tenantId: 'big' }, limit: 1 });
      expect(hit).toMatchObject({ id: pointId(`v${BIG + SMALL + 39}`), score: expect.closeTo(1, 5) });
      await s.upsert('c', points(BIG + SMALL + 40, BIG + SMALL + 100, 'big'));
      await s.maintenance.idle();
      expect(s.maintenance.stats).toMatchObject({ done: { index: 1, reindex: 1 }, failures: 0 });
    });

    it('compacts the small fragments that writes leave', async () => {
      const s = await open({ compactAfterFragments: 8 });
      await s.ensureCollection('c', DIM);
      for (let i = 0; i < 10; i++) await s.upsert('c', points(i * 3, i * 3 + 3, 'big'));
      await s.maintenance.idle();
      expect(s.maintenance.stats).toMatchObject({ done: { compact: 1, index: 0 }, failures: 0 });
      expect(await s.count('c')).toBe(30);
      const db = await connect(dir);
      const table = await db.openTable('c');
      expect((await table.stats()).fragmentStats.numFragments).toBeLessThan(8);
      table.close();
      db.close();
    });

    it('leaves the work to the process holding the claim, and takes over a claim left stale', async () => {
      const claim = join(dir, 'c.maintenance');
      await writeFile(claim, JSON.stringify({ pid: 1, host: 'elsewhere', since: new Date().toISOString() }));
      const s = await filled({ claimStaleAfterMs: 60_000 });
      expect(s.maintenance.stats.done.index).toBe(0);
      expect(s.maintenance.stats.claimedElsewhere).toBeGreaterThan(0);
      // Its holder died two minutes ago without releasing it: the next write's check takes it over.
      const past = new Date(Date.now() - 120_000);
      await utimes(claim, past, past);
      await s.upsert('c', points(BIG + SMALL, BIG + SMALL + 1, 'big'));
      await s.maintenance.idle();
      expect(s.maintenance.stats).toMatchObject({ done: { index: 1 }, failures: 0 });
      expect(existsSync(claim)).toBe(false);
    });
  });
});

/**
 * Our embedded vector store (libs/vectors/src/embedded) against LanceDB, embedded too (docs/decisions/0033):
 * recall@10 against exact search, insert and query time at BENCH_VECTORS_N points (100,000 by default) of the
 * dimension our HashingEmbedder produces, and several processes writing to one store directory at once.
 *
 * LanceDB is not a dependency of the repository: install `@lancedb/lancedb@0.31.0` in a folder of its own and
 * point BENCH_LANCEDB_DIR at it (the folder holding its node_modules). Without it the LanceDB rows are skipped
 * with the reason printed. Run: `nice -n 10 node -r ./tools/ts-register.cjs tools/bench/vector-stores.ts`.
 *
 * The points are what the pipeline stores: HashingEmbedder vectors of short texts, drawn (seeded) from the
 * words of examples/corpus, 60% of each text from one of 400 topics so that neighbours exist; every point in
 * one tenant, so searches filter by tenant as the pipeline's do.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EmbeddedVectorStore, exactTopK, HashingEmbedder, pointId, VectorMatrix, type VectorPoint } from '../../libs/vectors/src';

const N = Number(process.env['BENCH_VECTORS_N'] ?? 100_000);
const QUERIES = Number(process.env['BENCH_VECTORS_QUERIES'] ?? 200);
const K = 10;
const BATCH = 1000;
const WRITERS = Number(process.env['BENCH_VECTORS_WRITERS'] ?? 4);
const PER_WRITER = Number(process.env['BENCH_VECTORS_PER_WRITER'] ?? 5000);
const TENANT = '00000000-0000-4000-8000-000000000001';
const COLLECTION = 'bench';
const CORPUS = path.resolve(__dirname, '../../examples/corpus');

/* eslint-disable @typescript-eslint/no-explicit-any -- LanceDB is loaded at run time from outside the repository: no types. */
type Lance = any;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(): string[] {
  const words = new Set<string>();
  for (const f of readdirSync(CORPUS).filter((n) => /\.(md|txt)$/.test(n))) {
    for (const w of readFileSync(path.join(CORPUS, f), 'utf8')
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? [])
      words.add(w);
  }
  return [...words];
}

/** `count` texts of 16 words; the same seed gives the same texts. */
function texts(count: number, seed: number, vocab: string[]): string[] {
  const rnd = seeded(seed);
  const topicRnd = seeded(7);
  const topics = Array.from({ length: 400 }, () => Array.from({ length: 30 }, () => vocab[Math.floor(topicRnd() * vocab.length)]!));
  return Array.from({ length: count }, () => {
    const topic = topics[Math.floor(rnd() * topics.length)]!;
    return Array.from({ length: 16 }, (_, i) =>
      i < 10 ? topic[Math.floor(rnd() * topic.length)] : vocab[Math.floor(rnd() * vocab.length)],
    ).join(' ');
  });
}

const ms = (t0: number) => performance.now() - t0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

function recall(found: string[][], truth: string[][]): number {
  let hit = 0;
  truth.forEach((t, i) => {
    const f = new Set(found[i]);
    hit += t.filter((id) => f.has(id)).length;
  });
  return hit / (truth.length * K);
}

interface Row {
  store: string;
  insertMs: number;
  indexMs: number | null;
  recall: number;
  p50: number;
  p95: number;
}

async function benchEmbedded(points: VectorPoint[], queries: Float32Array[], truth: string[][], dim: number): Promise<Row> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-embedded-'));
  try {
    const store = await EmbeddedVectorStore.open({ directory: dir });
    await store.ensureCollection(COLLECTION, dim);
    let t0 = performance.now();
    for (let i = 0; i < points.length; i += BATCH) await store.upsert(COLLECTION, points.slice(i, i + BATCH));
    const insertMs = ms(t0);
    t0 = performance.now();
    await store.buildIndex(COLLECTION);
    const indexMs = ms(t0);
    const { found, times } = await timeQueries(queries, async (q) =>
      (await store.search(COLLECTION, q, { filter: { tenantId: TENANT }, limit: K })).map((h) => h.id),
    );
    await store.close();
    return { store: 'embedded (ours, HNSW)', insertMs, indexMs, recall: recall(found, truth), p50: pct(times, 50), p95: pct(times, 95) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timeQueries(queries: Float32Array[], search: (q: Float32Array) => Promise<string[]>) {
  for (const q of queries.slice(0, 5)) await search(q); // warm-up
  const found: string[][] = [];
  const times: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    found.push(await search(q));
    times.push(ms(t0));
  }
  return { found, times };
}

function loadLance(): Lance | string {
  process.env['LANCEDB_LOG'] ??= 'error'; // its k-means warns about small data sets on stderr
  const dir = process.env['BENCH_LANCEDB_DIR'];
  if (!dir) return 'BENCH_LANCEDB_DIR is not set (a folder where @lancedb/lancedb@0.31.0 is installed)';
  try {
    return createRequire(path.join(path.resolve(dir), 'package.json'))('@lancedb/lancedb');
  } catch (err) {
    return `@lancedb/lancedb did not load from ${dir}: ${(err as Error).message.split('\n')[0]}`;
  }
}

const lanceRows = (pts: VectorPoint[]) =>
  pts.map((p) => ({ id: p.id, tenantId: p.payload.tenantId, kind: p.payload.kind, vector: Array.from(p.vector) }));

async function benchLance(
  lancedb: Lance,
  points: VectorPoint[],
  queries: Float32Array[],
  truth: string[][],
  print: (r: Row) => void,
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-lance-'));
  try {
    const db = await lancedb.connect(dir);
    let t0 = performance.now();
    const table = await db.createTable(COLLECTION, lanceRows(points.slice(0, BATCH)));
    for (let i = BATCH; i < points.length; i += BATCH) await table.add(lanceRows(points.slice(i, i + BATCH)));
    const insertMs = ms(t0);
    // `wide`: the index probes more partitions and re-ranks 10x the candidates by exact distance (recall for time).
    const search = async (q: Float32Array, wide = false) => {
      let query = table.vectorSearch(Array.from(q)).distanceType('cosine').where(`tenantId = '${TENANT}'`).limit(K);
      if (wide) query = query.nprobes(50).refineFactor(10);
      return ((await query.toArray()) as { id: string }[]).map((r) => r.id);
    };
    const flat = await timeQueries(queries, (q) => search(q));
    print({
      store: 'LanceDB, no index (flat scan)',
      insertMs,
      indexMs: null,
      recall: recall(flat.found, truth),
      p50: pct(flat.times, 50),
      p95: pct(flat.times, 95),
    });
    for (const [name, config] of [
      ['IVF_HNSW_SQ', lancedb.Index.hnswSq({ distanceType: 'cosine' })],
      ['IVF_PQ', lancedb.Index.ivfPq({ distanceType: 'cosine' })],
    ] as const) {
      t0 = performance.now();
      await table.createIndex('vector', { config, replace: true });
      const indexMs = ms(t0);
      for (const wide of [false, true]) {
        const r = await timeQueries(queries, (q) => search(q, wide));
        const store = `LanceDB, ${name} index${wide ? ', nprobes 50, refine x10' : ', defaults'}`;
        print({ store, insertMs, indexMs, recall: recall(r.found, truth), p50: pct(r.times, 50), p95: pct(r.times, 95) });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One writer process: PER_WRITER points of its own, upserted in batches of 500 into the shared directory. */
async function writer(kind: string, dir: string, index: number): Promise<void> {
  const embedder = new HashingEmbedder();
  const pts = texts(PER_WRITER, 1000 + index, vocabulary()).map((t, i) => point(`w${index}:${i}`, embedder.embedOne(t)));
  if (kind === 'embedded') {
    const store = await EmbeddedVectorStore.open({ directory: dir });
    await store.ensureCollection(COLLECTION, embedder.dimension);
    for (let i = 0; i < pts.length; i += 500) await store.upsert(COLLECTION, pts.slice(i, i + 500));
    await store.close();
  } else {
    const lancedb = loadLance() as Lance;
    const table = await (await lancedb.connect(dir)).openTable(COLLECTION);
    // Upsert by id, as the VectorStore port asks: a merge-insert, which commits optimistically and retries on conflict.
    for (let i = 0; i < pts.length; i += 500)
      await table
        .mergeInsert('id')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute(lanceRows(pts.slice(i, i + 500)));
  }
}

function point(key: string, vector: Float32Array): VectorPoint {
  return { id: pointId(key), vector, payload: { tenantId: TENANT, kind: 'bench' } };
}

async function concurrentWriters(kind: 'embedded' | 'lance', lancedb: Lance | null) {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-writers-${kind}-`));
  try {
    const dim = new HashingEmbedder().dimension;
    if (kind === 'lance') {
      const seed = [{ id: pointId('seed'), tenantId: TENANT, kind: 'bench', vector: Array.from({ length: dim }, () => 0) }];
      await (await lancedb.connect(dir)).createTable(COLLECTION, seed);
    } else {
      const s = await EmbeddedVectorStore.open({ directory: dir });
      await s.ensureCollection(COLLECTION, dim);
      await s.close();
    }
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => {
        const child = spawn(process.execPath, ['-r', './tools/ts-register.cjs', __filename, 'writer', kind, dir, String(i)], {
          cwd: path.resolve(__dirname, '../..'),
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        return new Promise<{ ok: boolean; error: string }>((resolve) =>
          child.on('exit', (code) =>
            resolve({ ok: code === 0, error: (stderr.match(/\w*Error: [^\n]*/)?.[0] ?? stderr.split('\n')[0] ?? '').slice(0, 160) }),
          ),
        );
      }),
    );
    const wallMs = ms(t0);
    let stored: number;
    if (kind === 'lance') stored = (await (await (await lancedb.connect(dir)).openTable(COLLECTION)).countRows()) - 1;
    else {
      const s = await EmbeddedVectorStore.open({ directory: dir });
      stored = await s.count(COLLECTION);
      await s.close();
    }
    return {
      kind,
      writersOk: results.filter((r) => r.ok).length,
      errors: [...new Set(results.filter((r) => !r.ok).map((r) => r.error))],
      stored,
      wallMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'writer') return writer(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
  const lancedb = loadLance();
  // BENCH_VECTORS_PART=writers: only the several-writers part (the table part takes long at 100k points).
  if (process.env['BENCH_VECTORS_PART'] === 'writers') return writersTable(lancedb);
  const embedder = new HashingEmbedder();
  const dim = embedder.dimension;
  const vocab = vocabulary();
  let t0 = performance.now();
  const points = texts(N, 1, vocab).map((t, i) => point(`p:${i}`, embedder.embedOne(t)));
  const queries = texts(QUERIES, 2, vocab).map((t) => embedder.embedOne(t));
  console.log(
    `vector stores: ${N} points of ${dim} dims (HashingEmbedder, ${vocab.length}-word corpus vocabulary), ${QUERIES} queries; embedded in ${fmt(ms(t0))} ms`,
  );
  t0 = performance.now();
  const matrix = new VectorMatrix(dim, N);
  for (const p of points) matrix.append(p.vector as Float32Array);
  const all = Array.from({ length: N }, (_, i) => i);
  const truth = queries.map((q) => exactTopK(matrix, q, all, K).map((r) => points[r.row]!.id));
  console.log(`exact top-${K} (ground truth) in ${fmt(ms(t0))} ms`);

  // Each row is printed as soon as it is measured: at 100k points on a busy machine the whole run takes a while.
  console.log(`\n| store | insert ${N} (s) | index build (s) | recall@${K} | query p50 (ms) | query p95 (ms) |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  const print = (r: Row) =>
    console.log(
      `| ${r.store} | ${fmt(r.insertMs / 1000)} | ${r.indexMs === null ? '—' : fmt(r.indexMs / 1000)} | ${r.recall.toFixed(3)} | ${fmt(r.p50)} | ${fmt(r.p95)} |`,
    );
  if (typeof lancedb === 'string') console.log(`LanceDB skipped: ${lancedb}`);
  else await benchLance(lancedb, points, queries, truth, print);
  print(await benchEmbedded(points, queries, truth, dim));

  await writersTable(lancedb);
}

async function writersTable(lancedb: Lance | string): Promise<void> {
  console.log(`\n${WRITERS} processes each upserting ${PER_WRITER} points into one store directory at once:`);
  console.log('| store | writers that finished | points stored (of expected) | wall (s) | errors |');
  console.log('| --- | --- | --- | --- | --- |');
  const kinds: ('embedded' | 'lance')[] = typeof lancedb === 'string' ? ['embedded'] : ['embedded', 'lance'];
  for (const kind of kinds) {
    const r = await concurrentWriters(kind, typeof lancedb === 'string' ? null : lancedb);
    console.log(
      `| ${r.kind} | ${r.writersOk}/${WRITERS} | ${r.stored} (${WRITERS * PER_WRITER}) | ${fmt(r.wallMs / 1000)} | ${r.errors.join('; ') || '—'} |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

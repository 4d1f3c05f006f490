/**
 * The embedded vector store, LanceVectorStore over LanceDB (docs/decisions/0033), through the VectorStore port:
 * insert time, recall@10 against exact search and query time, flat (exact) and with the IVF_HNSW_SQ index that its
 * background maintenance builds, at BENCH_VECTORS_N points (100,000 by default) of the dimension our HashingEmbedder
 * produces; then several processes upserting into one store directory at once (every point must be stored).
 *
 * Not in the default `npm run bench`: at 100k points the index build alone takes minutes. Run it with
 * `npm run bench -- vectors` (BENCH_VECTORS_N=20000 for a shorter run; BENCH_VECTORS_PART=writers for the writers alone).
 *
 * The points are what the pipeline stores: HashingEmbedder vectors of short texts, drawn (seeded) from the
 * words of examples/corpus, 10 of each text's 16 words from one of 400 topics so that neighbours exist; every point
 * in one tenant, so searches filter by tenant as the pipeline's do.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HashingEmbedder, LanceVectorStore, pointId, type VectorPoint } from '../../libs/vectors/src';

const N = Number(process.env['BENCH_VECTORS_N'] ?? 100_000);
const QUERIES = Number(process.env['BENCH_VECTORS_QUERIES'] ?? 200);
const K = 10;
const BATCH = 1000;
const WRITERS = Number(process.env['BENCH_VECTORS_WRITERS'] ?? 4);
const PER_WRITER = Number(process.env['BENCH_VECTORS_PER_WRITER'] ?? 5000);
const TENANT = '00000000-0000-4000-8000-000000000001';
const COLLECTION = 'bench';
const CORPUS = path.resolve(__dirname, '../../examples/corpus');

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

/** Exact cosine top-k by brute force (the embedder's vectors are unit length: cosine is the dot product). */
function exactTopK(points: VectorPoint[], query: Float32Array, k: number): string[] {
  const scored = points.map((p) => {
    const v = p.vector as Float32Array;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    return { id: p.id, dot };
  });
  return scored
    .sort((a, b) => b.dot - a.dot)
    .slice(0, k)
    .map((s) => s.id);
}

function recall(found: string[][], truth: string[][]): number {
  let hit = 0;
  truth.forEach((t, i) => {
    const f = new Set(found[i]);
    hit += t.filter((id) => f.has(id)).length;
  });
  return hit / (truth.length * K);
}

async function timeQueries(store: LanceVectorStore, queries: Float32Array[]) {
  const search = async (q: Float32Array) =>
    (await store.search(COLLECTION, q, { filter: { tenantId: TENANT }, limit: K })).map((h) => h.id);
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

function point(key: string, vector: Float32Array): VectorPoint {
  return { id: pointId(key), vector, payload: { tenantId: TENANT, kind: 'bench' } };
}

async function table(points: VectorPoint[], queries: Float32Array[], truth: string[][]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-lance-'));
  const row = (name: string, insertMs: number | null, indexMs: number | null, r: { found: string[][]; times: number[] }) =>
    console.log(
      `| ${name} | ${insertMs === null ? '—' : fmt(insertMs / 1000)} | ${indexMs === null ? '—' : fmt(indexMs / 1000)} | ${recall(r.found, truth).toFixed(3)} | ${fmt(pct(r.times, 50))} | ${fmt(pct(r.times, 95))} |`,
    );
  try {
    console.log(`\n| LanceVectorStore | insert ${N} (s) | index build (s) | recall@${K} | query p50 (ms) | query p95 (ms) |`);
    console.log('| --- | --- | --- | --- | --- | --- |');
    // Maintenance off while filling: the flat row is measured before any index exists.
    const flat = await LanceVectorStore.open({ directory: dir, maintenance: false });
    await flat.ensureCollection(COLLECTION, points[0]!.vector.length);
    let t0 = performance.now();
    for (let i = 0; i < points.length; i += BATCH) await flat.upsert(COLLECTION, points.slice(i, i + BATCH));
    const insertMs = ms(t0);
    row('flat (exact scan of the filtered rows)', insertMs, null, await timeQueries(flat, queries));
    await flat.close();
    // What a deployment does past the threshold: the next write's background check compacts and builds the index.
    const indexed = await LanceVectorStore.open({ directory: dir, indexAboveRows: Math.min(50_000, N) });
    t0 = performance.now();
    await indexed.upsert(COLLECTION, [points[0]!]);
    await indexed.maintenance.idle();
    const indexMs = ms(t0);
    if (indexed.maintenance.stats.done.index !== 1) throw new Error(`no index was built: ${JSON.stringify(indexed.maintenance.stats)}`);
    row('IVF_HNSW_SQ, nprobes 50, refine x10', null, indexMs, await timeQueries(indexed, queries));
    await indexed.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One writer process: PER_WRITER points of its own, upserted in batches of 500 into the shared directory. */
async function writer(dir: string, index: number): Promise<void> {
  const embedder = new HashingEmbedder();
  const pts = texts(PER_WRITER, 1000 + index, vocabulary()).map((t, i) => point(`w${index}:${i}`, embedder.embedOne(t)));
  const store = await LanceVectorStore.open({ directory: dir });
  await store.ensureCollection(COLLECTION, embedder.dimension);
  for (let i = 0; i < pts.length; i += 500) await store.upsert(COLLECTION, pts.slice(i, i + 500));
  await store.close();
}

async function writers(): Promise<void> {
  console.log(`\n${WRITERS} processes each upserting ${PER_WRITER} points into one store directory at once:`);
  console.log('| writers that finished | points stored (of expected) | wall (s) | errors |');
  console.log('| --- | --- | --- | --- |');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-writers-'));
  try {
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => {
        const child = spawn(process.execPath, ['-r', './tools/ts-register.cjs', __filename, 'writer', dir, String(i)], {
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
    const store = await LanceVectorStore.open({ directory: dir, maintenance: false });
    const stored = await store.count(COLLECTION);
    await store.close();
    const errors = [...new Set(results.filter((r) => !r.ok).map((r) => r.error))];
    console.log(
      `| ${results.filter((r) => r.ok).length}/${WRITERS} | ${stored} (${WRITERS * PER_WRITER}) | ${fmt(wallMs / 1000)} | ${errors.join('; ') || '—'} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  process.env['LANCEDB_LOG'] ??= 'error'; // its k-means warns about small data sets on stderr
  if (process.argv[2] === 'writer') return writer(process.argv[3]!, Number(process.argv[4]));
  if (process.env['BENCH_VECTORS_PART'] !== 'writers') {
    const embedder = new HashingEmbedder();
    const vocab = vocabulary();
    let t0 = performance.now();
    const points = texts(N, 1, vocab).map((t, i) => point(`p:${i}`, embedder.embedOne(t)));
    const queries = texts(QUERIES, 2, vocab).map((t) => embedder.embedOne(t));
    console.log(
      `vector store: ${N} points of ${embedder.dimension} dims (HashingEmbedder, ${vocab.length}-word corpus vocabulary), ${QUERIES} queries; embedded in ${fmt(ms(t0))} ms`,
    );
    t0 = performance.now();
    const truth = queries.map((q) => exactTopK(points, q, K));
    console.log(`exact top-${K} (ground truth) in ${fmt(ms(t0))} ms`);
    await table(points, queries, truth);
  }
  await writers();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench -- designs`: what a durable step costs by design alone, with none of the engine's code (decision 0163).
 * The step bench (step-overhead.ts) compares the engine with a bare commit plus a bare enqueue; no durable step can be
 * that cheap, since it also has to claim the step before it runs. This bench times two designs' round trips alone, on
 * the same Postgres and Redis, so the engine's figure can be split into what its design costs and what its code adds.
 *
 * - **bullmq** (the engine's design, bare): a BullMQ worker takes the job; a start statement (autocommit: the attempt
 *   claimed); BEGIN with the completion and the handler's write in one socket write; the decision's row with COMMIT in
 *   one write; then the next job added, with a priority, to the other of two queues (the next step of a run belongs to
 *   another service). Three Postgres round trips and a BullMQ hop, the engine's shape (docs/decisions/0135, 0140).
 * - **postgres** (a transport in Postgres alone): the step is a row. A claim statement takes the oldest ready row
 *   (`FOR UPDATE SKIP LOCKED`) and marks it running with an owner and an attempt: the start. One transaction, in one
 *   socket write, completes it (fenced by owner and attempt), writes the handler's row, inserts the next step's row and
 *   notifies its queue's channel; COMMIT rides with it. The other queue's slots wake on LISTEN. Two round trips and a
 *   wake-up.
 *
 * Each design runs CHAINS chains at once (1, then BENCH_CHAINS), HOPS hops in all; a hop's figures are the engine
 * bench's: dequeue → next step enqueued (committed, for postgres), dequeue → next step dequeued; and the process's CPU
 * per hop. The first hops of each chain are not counted (connections, JIT). `--json FILE` writes the figures.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { Client, type PoolClient } from 'pg';
import { corkSocket } from '@dossier/db';
import { drainAwareBackend } from '@dossier/queue';
import { createEmptyDatabase, uniquePrefix, type TestDatabase } from '@dossier/testing';
import { percentiles } from './step-report';
import { HopMarks, hopsPerChain, micros } from './hop-marks';
import { DesignBenchReport, type DesignFigures } from './design-report';
import { runBench } from './run-bench';

const CHAINS = Number(process.env['BENCH_CHAINS'] ?? 12);
const HOPS = Number(process.env['BENCH_HOPS'] ?? 600);
/** Which designs to run (comma-separated; both by default): one alone, to profile it (`node --cpu-prof`). */
const DESIGNS = (process.env['BENCH_DESIGNS'] ?? 'bullmq,postgres').split(',');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const { values: args } = parseArgs({ options: { json: { type: 'string' } } });

const DDL = `
  CREATE TABLE IF NOT EXISTS design_steps (id text PRIMARY KEY, state text NOT NULL, attempts int NOT NULL);
  CREATE TABLE IF NOT EXISTS design_outputs (id bigserial PRIMARY KEY, step text NOT NULL, v int NOT NULL);
  CREATE TABLE IF NOT EXISTS design_decided (step text PRIMARY KEY, cause text NOT NULL, payload jsonb NOT NULL);
  CREATE TABLE IF NOT EXISTS design_queue (
    id text PRIMARY KEY, queue int NOT NULL, chain int NOT NULL, n int NOT NULL, prio bigint NOT NULL,
    state text NOT NULL DEFAULT 'ready', owner text, attempts int NOT NULL DEFAULT 0);
  CREATE INDEX IF NOT EXISTS design_queue_ready ON design_queue (queue, prio, id) WHERE state = 'ready';`;

/** A connection in pg's pipeline mode: statements sent without waiting for the one before (as the engine's). */
async function pipelined(db: TestDatabase): Promise<Client> {
  const client = new Client({ connectionString: db.url, pipeline: true } as ConstructorParameters<typeof Client>[0]);
  await client.connect();
  return client;
}

/** Sends `statements` in one socket write (Node's cork, released on the next turn, as the engine's hold) and awaits all. */
async function inOneWrite(client: Client, statements: readonly [string, unknown[]][]): Promise<void> {
  setImmediate(corkSocket(client as PoolClient));
  await Promise.all(statements.map(([text, values]) => client.query(text, values)));
}

/** A design's figures from its window's marks, CPU and wall time (CPU and wall over every hop, warm-up included). */
function hopFigures(
  marks: HopMarks,
  chains: number,
  cpu: NodeJS.CpuUsage,
  wallMs: number,
  id: (c: number, n: number) => string,
): DesignFigures['hops'] {
  const perChain = hopsPerChain(HOPS, chains);
  const { overhead, hop } = marks.intervals(chains, perChain, id);
  const all = chains * perChain;
  return {
    overhead: percentiles(overhead),
    hop: percentiles(hop),
    cpuMicrosPerHop: Math.round((cpu.user + cpu.system) / all),
    wallMicrosPerHop: Math.round((wallMs * 1000) / all),
  };
}

/** The engine's design without the engine: BullMQ between steps, three Postgres round trips in each. */
async function bullmqDesign(db: TestDatabase, chains: number): Promise<DesignFigures['hops']> {
  const prefix = uniquePrefix('design');
  const perChain = hopsPerChain(HOPS, chains);
  const id = (c: number, n: number): string => `${prefix}.${c}.${n}`;
  const marks = new HopMarks();
  const producer = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queues = [0, 1].map((q) => new Queue(`design-${q}`, { connection: producer, prefix }));
  const clients = await Promise.all(Array.from({ length: chains }, () => pipelined(db)));
  const workerConnections: Redis[] = [];
  let open = chains;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const add = (c: number, n: number) =>
    queues[n % 2]!.add('hop', { c, n }, { jobId: id(c, n), priority: 1 + (c % 64), attempts: 3, removeOnComplete: { count: HOPS * 2 } });

  const hop = async (job: Job<{ c: number; n: number }>) => {
    const { c, n } = job.data;
    const key = id(c, n);
    marks.started.set(key, micros());
    if (n >= perChain) {
      if (--open === 0) done();
      return;
    }
    const client = clients[c]!;
    // The start: the attempt claimed, autocommit.
    const started = await client.query<{ attempts: number }>(
      `INSERT INTO design_steps (id, state, attempts) VALUES ($1, 'running', 1)
       ON CONFLICT (id) DO UPDATE SET attempts = design_steps.attempts + 1, state = 'running' RETURNING attempts`,
      [key],
    );
    const attempt = started.rows[0]!.attempts;
    // BEGIN, the fenced completion and the handler's write in one write; then the decision with COMMIT in one write.
    await inOneWrite(client, [
      ['BEGIN', []],
      [`UPDATE design_steps SET state = 'done' WHERE id = $1 AND attempts = $2 AND state <> 'done' RETURNING id`, [key, attempt]],
      ['INSERT INTO design_outputs (step, v) VALUES ($1, $2)', [key, n]],
    ]);
    await inOneWrite(client, [
      ['INSERT INTO design_decided (step, cause, payload) VALUES ($1, $2, $3)', [id(c, n + 1), key, JSON.stringify({ c, n: n + 1 })]],
      ['COMMIT', []],
    ]);
    await add(c, n + 1);
    marks.enqueued.set(id(c, n + 1), micros());
  };
  const workers = [0, 1].map((q) => {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    workerConnections.push(connection);
    // The engine's fetch (docs/decisions/0144), so the design's Redis commands are the engine's.
    return new Worker(`design-${q}`, hop, { connection, prefix, concurrency: Math.max(4, chains) }, drainAwareBackend);
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: chains }, (_, c) => add(c, 0)));
  await finished;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all(queues.map((q) => q.obliterate({ force: true })));
  await Promise.all(queues.map((q) => q.close()));
  await Promise.all([producer, ...workerConnections].map((r) => r.quit()));
  await Promise.all(clients.map((c) => c.end()));
  return hopFigures(marks, chains, cpu, wall, id);
}

/** A transport in Postgres alone: the step is a row, claimed with SKIP LOCKED, completed with its successor in one write. */
async function postgresDesign(db: TestDatabase, chains: number): Promise<DesignFigures['hops']> {
  const perChain = hopsPerChain(HOPS, chains);
  const tag = uniquePrefix('p').replace(/[^a-z0-9]/gi, '');
  const id = (c: number, n: number): string => `${tag}.${c}.${n}`;
  const channel = (q: number): string => `design_${tag}_${q}`.toLowerCase();
  const marks = new HopMarks();
  const slotsPerQueue = Math.max(4, chains);
  let open = chains;
  let stopping = false;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  // Idle slots of each queue, woken one per notice (a notice is one new step).
  const idle: (() => void)[][] = [[], []];
  const listener = new Client({ connectionString: db.url });
  await listener.connect();
  listener.on('notification', (msg) => {
    const q = msg.channel === channel(0) ? 0 : 1;
    idle[q]!.shift()?.();
  });
  await listener.query(`LISTEN ${channel(0)}`);
  await listener.query(`LISTEN ${channel(1)}`);

  const insertNext = `INSERT INTO design_queue (id, queue, chain, n, prio) VALUES ($1, $2, $3, $4, $5)`;
  const slot = async (q: number, owner: string, client: Client): Promise<void> => {
    try {
      while (!stopping) {
        const claimed = await client.query<{ id: string; chain: number; n: number; attempts: number }>(
          `UPDATE design_queue SET state = 'running', owner = $2, attempts = attempts + 1
           WHERE id = (SELECT id FROM design_queue WHERE queue = $1 AND state = 'ready' ORDER BY prio, id LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING id, chain, n, attempts`,
          [q, owner],
        );
        const row = claimed.rows[0];
        if (!row) {
          // Nothing ready: wait for a notice on this queue's channel (or look again in a while).
          await new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              resolve();
            };
            const timer = setTimeout(() => {
              const i = idle[q]!.indexOf(wake);
              if (i >= 0) idle[q]!.splice(i, 1);
              resolve();
            }, 200);
            idle[q]!.push(wake);
          });
          continue;
        }
        const { chain: c, n } = row;
        marks.started.set(row.id, micros());
        if (n >= perChain) {
          if (--open === 0) done();
          continue;
        }
        const next = (q + 1) % 2;
        // One write: BEGIN, the fenced completion, the handler's write, the next step's row, its notice, COMMIT.
        await inOneWrite(client, [
          ['BEGIN', []],
          [`UPDATE design_queue SET state = 'done' WHERE id = $1 AND owner = $2 AND attempts = $3`, [row.id, owner, row.attempts]],
          ['INSERT INTO design_outputs (step, v) VALUES ($1, $2)', [row.id, n]],
          [insertNext, [id(c, n + 1), next, c, n + 1, 1 + (c % 64)]],
          [`SELECT pg_notify($1, '')`, [channel(next)]],
          ['COMMIT', []],
        ]);
        marks.enqueued.set(id(c, n + 1), micros());
      }
    } finally {
      await client.end();
    }
  };
  // Connected before the window opens, as BullMQ's workers are ready before theirs.
  const clients = await Promise.all(Array.from({ length: 2 * slotsPerQueue }, () => pipelined(db)));
  const seed = await pipelined(db);
  const cpu0 = process.cpuUsage();
  const slots = clients.map((client, i) => slot(i % 2, `w${i}`, client));
  const t0 = performance.now();
  await Promise.all(Array.from({ length: chains }, (_, c) => seed.query(insertNext, [id(c, 0), 0, c, 0, 1 + (c % 64)])));
  await seed.query(`SELECT pg_notify($1, '')`, [channel(0)]);
  await finished;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  stopping = true;
  for (const q of [0, 1]) for (const wake of idle[q]!.splice(0)) wake();
  await Promise.all(slots);
  await Promise.all([seed.end(), listener.end()]);
  return hopFigures(marks, chains, cpu, wall, id);
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const from = Date.now();
  const db = await createEmptyDatabase();
  const designs: DesignFigures[] = [];
  try {
    const setup = new Client({ connectionString: db.url });
    await setup.connect();
    await setup.query(DDL);
    await setup.end();
    for (const chains of [...new Set([1, CHAINS])]) {
      for (const [design, run] of [
        ['bullmq', bullmqDesign],
        ['postgres', postgresDesign],
      ] as const) {
        if (!DESIGNS.includes(design)) continue;
        const window = { from: Date.now(), to: 0 };
        const hops = await run(db, chains);
        window.to = Date.now();
        const figures: DesignFigures = { design, chains, window, hops };
        designs.push(figures);
        console.log(
          `${design.padEnd(8)} ${String(chains).padStart(2)} chain(s): dequeue → next enqueued p50 ${hops.overhead.p50} p90 ${hops.overhead.p90} p99 ${hops.overhead.p99} µs; dequeue → next dequeued p50 ${hops.hop.p50} p99 ${hops.hop.p99} µs; CPU ${hops.cpuMicrosPerHop} µs per hop`,
        );
      }
    }
  } finally {
    await db.drop();
  }
  const loadAfter = loadavg()[0]!;
  console.log(`load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores`);
  const report = DesignBenchReport.parse({
    bench: 'designs',
    pid: process.pid,
    window: { from, to: Date.now() },
    load: { before: loadBefore, after: loadAfter },
    designs,
  });
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
}

runBench(main);

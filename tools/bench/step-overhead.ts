/**
 * `npm run bench`: step overhead of the durable engine beside a bare BullMQ hop, measured in the same
 * run on the same Redis; and recovery time after a worker is killed with SIGKILL.
 *
 * Overhead of a step = (when Redis acknowledged the first step it decided) − (when the transport was handed it), in µs
 * on this process's monotonic clock: everything the engine adds around a handler that does nothing (step
 * lock, attempt record, the one transaction with checkpoint, events, routing and outbox, then the enqueue
 * after commit). The floors, measured in the same run: the same interval for a BullMQ processor that only
 * adds the next job, and one single-row Postgres INSERT committed on its own. A step cannot be faster than
 * one commit plus one enqueue, so the ratio to their sum is the figure to watch on a busy machine.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { SERVICE_NAMES, stepKey, type StepRef } from '@dossier/contracts';
import { BullMqServer, StepQueues } from '@dossier/queue';
import { sql, startChildService, waitFor } from '@dossier/testing';
import { prepareDatabase, processEnv, REDIS_URL, startEngine, TENANT, uniquePrefix } from '../../libs/workflow/test/fixtures/engine';
import { waitForStatus } from '../../libs/workflow/test/fixtures/run-queries';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 12);
const HOPS = Number(process.env['BENCH_HOPS'] ?? 600);
const COMMITS = Number(process.env['BENCH_COMMITS'] ?? 600);

/** Microseconds on the process's monotonic clock: every interval below is measured in this one process. */
const micros = (): number => Math.round(performance.now() * 1000);

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Records, per step key, when the BullMQ transport was handed the job and when the step was first enqueued. The engine
 * runs in this process, so wrapping the two prototypes sees every step without changing the engine.
 */
function instrumentEngine(): { started: Map<string, number>; enqueued: Map<string, number> } {
  const started = new Map<string, number>();
  const enqueued = new Map<string, number>();
  // The transport's entry (private, reached through the prototype): the Nest pipeline and the runner are both inside.
  type Entry = { handleJob(job: Job, token?: string): Promise<unknown> };
  const server = BullMqServer.prototype as unknown as Entry;
  const handleJob = server.handleJob;
  server.handleJob = function (this: Entry, job, token) {
    const t = micros();
    const key = stepKey(job.data as StepRef);
    if (!started.has(key)) started.set(key, t);
    return handleJob.call(this, job, token);
  };
  const enqueueMany = StepQueues.prototype.enqueueMany;
  StepQueues.prototype.enqueueMany = async function (this: StepQueues, jobs) {
    await enqueueMany.call(this, jobs);
    const t = micros();
    for (const job of jobs) if (!enqueued.has(stepKey(job))) enqueued.set(stepKey(job), t);
  };
  return { started, enqueued };
}

async function engineOverhead(): Promise<{ overhead: number[]; hop: number[]; steps: number }> {
  const db = await prepareDatabase();
  const prefix = uniquePrefix('bench');
  process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 2, gains: [0.9, 0.9] });
  delete process.env['TEST_LOG'];
  const { started, enqueued } = instrumentEngine();
  const engine = await startEngine(db, prefix, SERVICE_NAMES);
  const overhead: number[] = [];
  const hop: number[] = [];
  let steps = 0;
  try {
    // Warm-up run (connections, JIT), not counted.
    const warm = await engine.commands.start({ tenantId: TENANT, question: 'warm-up', options: { maxIterations: 1 }, actor: 'bench' });
    await waitForStatus(db.url, warm.id, 'completed');
    for (let r = 0; r < RUNS; r++) {
      const run = await engine.commands.start({ tenantId: TENANT, question: `bench ${r}`, options: { maxIterations: 2 }, actor: 'bench' });
      await waitForStatus(db.url, run.id, 'completed');
      const rows = await sql<{ step_key: string; cause_key: string }>(db.url, 'SELECT step_key, cause_key FROM outbox WHERE run_id = $1', [
        run.id,
      ]);
      const byCause = new Map<string, string[]>();
      for (const row of rows) byCause.set(row.cause_key, [...(byCause.get(row.cause_key) ?? []), row.step_key]);
      for (const row of rows) {
        const decided = byCause.get(row.step_key);
        const self = started.get(row.step_key);
        if (!decided || self === undefined) continue;
        const firstEnqueued = Math.min(...decided.map((k) => enqueued.get(k) ?? Infinity));
        const firstStarted = Math.min(...decided.map((k) => started.get(k) ?? Infinity));
        if (Number.isFinite(firstEnqueued)) overhead.push(firstEnqueued - self);
        if (Number.isFinite(firstStarted)) hop.push(firstStarted - self);
        steps++;
      }
    }
  } finally {
    await engine.close();
    await db.drop();
  }
  return { overhead, hop, steps };
}

async function bareBullmq(): Promise<{ overhead: number[]; hop: number[] }> {
  const prefix = uniquePrefix('bare');
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('bare', { connection, prefix });
  const started = new Map<number, number>();
  const enqueued = new Map<number, number>();
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const workerConnection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(
    'bare',
    async (job: Job<{ n: number }>) => {
      started.set(job.data.n, micros());
      if (job.data.n >= HOPS) return done();
      await queue.add('hop', { n: job.data.n + 1 }, { jobId: `hop.${job.data.n + 1}`, removeOnComplete: { count: HOPS * 2 } });
      enqueued.set(job.data.n + 1, micros());
    },
    { connection: workerConnection, prefix, concurrency: 4 },
  );
  await queue.add('hop', { n: 0 }, { jobId: 'hop.0', removeOnComplete: { count: HOPS * 2 } });
  await finished;
  const overhead: number[] = [];
  const hop: number[] = [];
  for (let n = 20; n < HOPS; n++) {
    overhead.push(enqueued.get(n + 1)! - started.get(n)!);
    hop.push(started.get(n + 1)! - started.get(n)!);
  }
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await workerConnection.quit();
  await connection.quit();
  return { overhead, hop };
}

/** The Postgres floor: one single-row INSERT committed on its own (one round trip and one WAL flush). */
async function bareCommit(): Promise<number[]> {
  const db = await prepareDatabase();
  const client = new Client({ connectionString: db.url });
  await client.connect();
  const times: number[] = [];
  try {
    await client.query('CREATE TABLE bench_commit (id bigserial PRIMARY KEY, v int NOT NULL, at timestamptz NOT NULL DEFAULT now())');
    for (let i = 0; i < COMMITS + 20; i++) {
      const t = micros();
      await client.query('INSERT INTO bench_commit (v) VALUES ($1)', [i]);
      if (i >= 20) times.push(micros() - t);
    }
  } finally {
    await client.end();
    await db.drop();
  }
  return times;
}

async function sigkillRecovery(): Promise<{ lockMs: number; stalledMs: number; watchMs: number; recoveryMs: number }> {
  const db = await prepareDatabase();
  const prefix = uniquePrefix('kill');
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-bench-'));
  const log = path.join(dir, 'log');
  const release = path.join(dir, 'release');
  writeFileSync(log, '');
  // Production defaults for lock, stall and stall-watch settings (libs/config), not the tests' fast ones.
  const settings = { lockMs: 30_000, stalledMs: 1_000, watchMs: 500 };
  const env = {
    ...processEnv(db, prefix, {
      TEST_LOG: log,
      // scope is held until the kill, so it is in flight on the victim however long the standby takes to boot.
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, holdUntil: { '.scope.': release } }),
    }),
    STEP_LOCK_MS: String(settings.lockMs),
    STALLED_INTERVAL_MS: String(settings.stalledMs),
    STALL_WATCH_INTERVAL_MS: String(settings.watchMs),
  };
  const worker = path.resolve(__dirname, '../../libs/workflow/test/fixtures/test-worker.ts');
  const victim = startChildService(worker, env, 'victim');
  const conductor = startChildService(path.resolve(__dirname, '../../apps/conductor/src/main.ts'), env, 'conductor');
  await Promise.all([victim.waitForOutput(/test-worker ready/), conductor.waitForOutput(/conductor ready/)]);
  const engine = await startEngine(db, prefix, []);
  const run = await engine.commands.start({ tenantId: TENANT, question: 'kill', options: { maxIterations: 1 }, actor: 'bench' });
  const key = `${run.id}.scope.0.0`;
  await waitFor('scope to start', () => readFileSync(log, 'utf8').includes(key));
  // A standby worker is up before the kill, as in a deployment with more than one replica.
  const standby = startChildService(worker, env, 'standby');
  await standby.waitForOutput(/test-worker ready/);
  victim.kill('SIGKILL');
  const killedAt = Date.now();
  writeFileSync(release, '');
  await waitFor('scope to restart elsewhere', () => readFileSync(log, 'utf8').split(key).length - 1 >= 2, { intervalMs: 20 });
  const recoveryMs = Date.now() - killedAt;
  await waitForStatus(db.url, run.id, 'completed');
  for (const child of [standby, conductor]) {
    child.kill('SIGTERM');
    await child.exited;
  }
  await engine.close();
  await db.drop();
  return { ...settings, recoveryMs };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const loadBefore = loadavg()[0]!;
  const commit = await bareCommit();
  const bare = await bareBullmq();
  const engine = await engineOverhead();
  const loadAfter = loadavg()[0]!;
  const rows = [
    ['bare Postgres: one-row INSERT committed', commit],
    ['bare BullMQ: dequeue → next enqueued', bare.overhead],
    ['engine step: dequeue → commit → next enqueued', engine.overhead],
    ['bare BullMQ: dequeue → next dequeued', bare.hop],
    ['engine step: dequeue → next dequeued', engine.hop],
  ] as const;
  console.log(
    `\nStep overhead (empty handlers; ${engine.steps} engine steps over ${RUNS} runs, ${bare.overhead.length} bare hops, ${commit.length} bare commits; µs)`,
  );
  console.log(`load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on this machine's cores`);
  console.log('| measure | n | p50 | p90 | p99 |');
  console.log('|---|---|---|---|---|');
  for (const [name, v] of rows) console.log(`| ${name} | ${v.length} | ${pct(v, 50)} | ${pct(v, 90)} | ${pct(v, 99)} |`);
  const floor = (p: number): number => pct(commit, p) + pct(bare.overhead, p);
  const ratio = (p: number): string => (pct(engine.overhead, p) / floor(p)).toFixed(1);
  console.log(`engine step / floor (bare commit + bare enqueue, same percentile): p50 ${ratio(50)}x, p90 ${ratio(90)}x, p99 ${ratio(99)}x`);
  if (process.env['BENCH_SKIP_KILL'] !== '1') {
    const k = await sigkillRecovery();
    console.log(
      `\nSIGKILL recovery (lock ${k.lockMs} ms, stalled check every ${k.stalledMs} ms, stall watch every ${k.watchMs} ms, standby worker running): ${k.recoveryMs} ms from kill to the step restarting on another worker`,
    );
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

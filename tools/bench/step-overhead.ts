/**
 * `npm run bench`: step overhead of the durable engine beside a bare BullMQ hop, measured in the same
 * run on the same Redis; and recovery time after a worker is killed with SIGKILL.
 *
 * Overhead of a step = (enqueue time of the first step it decided) − (time it was dequeued): everything
 * the engine adds around a handler that does nothing (completed check, step lock, attempt record,
 * the one transaction with checkpoint, events, routing and outbox, then the enqueue after commit).
 * The bare hop is the same interval for a BullMQ processor that only adds the next job.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { SERVICE_NAMES, stepKey, type NodeName } from '@dossier/contracts';
import { sql, startChildService, waitFor } from '@dossier/testing';
import { prepareDatabase, processEnv, REDIS_URL, startEngine, TENANT, uniquePrefix } from '../../libs/workflow/test/fixtures/engine';
import { waitForStatus } from '../../libs/workflow/test/fixtures/run-queries';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 12);
const HOPS = Number(process.env['BENCH_HOPS'] ?? 600);

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function engineOverhead(): Promise<{ overhead: number[]; hop: number[]; steps: number }> {
  const db = await prepareDatabase();
  const prefix = uniquePrefix('bench');
  process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 2, gains: [0.9, 0.9] });
  delete process.env['TEST_LOG'];
  const engine = await startEngine(db, prefix, SERVICE_NAMES);
  const overhead: number[] = [];
  const hop: number[] = [];
  let steps = 0;
  try {
    // Warm-up run (connections, JIT), not counted.
    const warm = await engine.commands.start({ tenantId: TENANT, question: 'warm-up', options: { maxIterations: 1 }, actor: 'bench' });
    await waitForStatus(db.url, warm.id, 'completed');
    const queues = new Map(
      SERVICE_NAMES.map((s) => [s, new Queue(s, { connection: new Redis(REDIS_URL, { maxRetriesPerRequest: null }), prefix })]),
    );
    const { NODE_SERVICE } = await import('@dossier/contracts');
    for (let r = 0; r < RUNS; r++) {
      const run = await engine.commands.start({ tenantId: TENANT, question: `bench ${r}`, options: { maxIterations: 2 }, actor: 'bench' });
      await waitForStatus(db.url, run.id, 'completed');
      const rows = await sql<{ step_key: string; cause_key: string; node: NodeName; iteration: number; shard: number }>(
        db.url,
        'SELECT step_key, cause_key, node, iteration, shard FROM outbox WHERE run_id = $1',
        [run.id],
      );
      const jobOf = async (node: NodeName, key: string): Promise<Job | undefined> => queues.get(NODE_SERVICE[node])!.getJob(key);
      const byCause = new Map<string, typeof rows>();
      for (const row of rows) byCause.set(row.cause_key, [...(byCause.get(row.cause_key) ?? []), row]);
      for (const row of rows) {
        const decided = byCause.get(row.step_key);
        if (!decided) continue;
        const self = await jobOf(row.node, row.step_key);
        const next = await Promise.all(
          decided.map((d) => jobOf(d.node, stepKey({ runId: run.id, node: d.node, iteration: d.iteration, shard: d.shard }))),
        );
        const firstEnqueued = Math.min(...next.filter((j): j is Job => !!j).map((j) => j.timestamp));
        const firstStarted = Math.min(...next.filter((j): j is Job => !!j && !!j.processedOn).map((j) => j.processedOn!));
        if (self?.processedOn && Number.isFinite(firstEnqueued)) overhead.push(firstEnqueued - self.processedOn);
        if (self?.processedOn && Number.isFinite(firstStarted)) hop.push(firstStarted - self.processedOn);
        steps++;
      }
    }
    await Promise.all([...queues.values()].map(async (q) => q.close()));
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
  const overhead: number[] = [];
  const hop: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const workerConnection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(
    'bare',
    async (job: Job<{ n: number }>) => {
      if (job.data.n >= HOPS) return done();
      await queue.add('hop', { n: job.data.n + 1 }, { jobId: `hop.${job.data.n + 1}`, removeOnComplete: { count: HOPS * 2 } });
    },
    { connection: workerConnection, prefix, concurrency: 4 },
  );
  await queue.add('hop', { n: 0 }, { jobId: 'hop.0', removeOnComplete: { count: HOPS * 2 } });
  await finished;
  for (let n = 20; n < HOPS; n++) {
    const [a, b] = await Promise.all([queue.getJob(`hop.${n}`), queue.getJob(`hop.${n + 1}`)]);
    if (a?.processedOn && b) overhead.push(b.timestamp - a.processedOn);
    if (a?.processedOn && b?.processedOn) hop.push(b.processedOn - a.processedOn);
  }
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await workerConnection.quit();
  await connection.quit();
  return { overhead, hop };
}

async function sigkillRecovery(): Promise<{ lockMs: number; stalledMs: number; recoveryMs: number }> {
  const db = await prepareDatabase();
  const prefix = uniquePrefix('kill');
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-bench-')), 'log');
  writeFileSync(log, '');
  // Production defaults for lock and stall settings (libs/config WorkerEnv), not the tests' fast ones.
  const env = {
    ...processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, slow: { '.scope.': 3000 } }),
    }),
    STEP_LOCK_MS: '10000',
    STALLED_INTERVAL_MS: '5000',
  };
  const victim = startChildService(path.resolve(__dirname, '../../libs/workflow/test/fixtures/test-worker.ts'), env, 'victim');
  await victim.waitForOutput(/test-worker ready/);
  const engine = await startEngine(db, prefix, []);
  const run = await engine.commands.start({ tenantId: TENANT, question: 'kill', options: { maxIterations: 1 }, actor: 'bench' });
  const key = `${run.id}.scope.0.0`;
  await waitFor('scope to start', () => readFileSync(log, 'utf8').includes(key));
  // A standby worker is up before the kill, as in a deployment with more than one replica.
  const standby = startChildService(path.resolve(__dirname, '../../libs/workflow/test/fixtures/test-worker.ts'), env, 'standby');
  await standby.waitForOutput(/test-worker ready/);
  victim.kill('SIGKILL');
  const killedAt = Date.now();
  await waitFor('scope to restart elsewhere', () => readFileSync(log, 'utf8').split(key).length - 1 >= 2, { intervalMs: 20 });
  const recoveryMs = Date.now() - killedAt;
  await waitForStatus(db.url, run.id, 'completed');
  standby.kill('SIGTERM');
  await standby.exited;
  await engine.close();
  await db.drop();
  return { lockMs: 10_000, stalledMs: 5_000, recoveryMs };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const bare = await bareBullmq();
  const engine = await engineOverhead();
  const rows = [
    ['bare BullMQ: dequeue → next enqueued', bare.overhead],
    ['engine step: dequeue → commit → next enqueued', engine.overhead],
    ['bare BullMQ: dequeue → next dequeued', bare.hop],
    ['engine step: dequeue → next dequeued', engine.hop],
  ] as const;
  console.log(`\nStep overhead (empty handlers; ${engine.steps} engine steps over ${RUNS} runs, ${bare.overhead.length} bare hops; ms)`);
  console.log('| measure | n | p50 | p90 | p99 |');
  console.log('|---|---|---|---|---|');
  for (const [name, v] of rows) console.log(`| ${name} | ${v.length} | ${pct(v, 50)} | ${pct(v, 90)} | ${pct(v, 99)} |`);
  const ratio = (a: number[], b: number[], p: number) => (pct(a, p) / Math.max(1, pct(b, p))).toFixed(1);
  console.log(
    `ratio engine/bare (dequeue → next enqueued): p50 ${ratio(engine.overhead, bare.overhead, 50)}x, p99 ${ratio(engine.overhead, bare.overhead, 99)}x`,
  );
  if (process.env['BENCH_SKIP_KILL'] !== '1') {
    const k = await sigkillRecovery();
    console.log(
      `\nSIGKILL recovery (lock ${k.lockMs} ms, stalled check every ${k.stalledMs} ms, standby worker running): ${k.recoveryMs} ms from kill to the step restarting on another worker`,
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

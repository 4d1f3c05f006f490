import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NAMES } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { sql, startChildService, waitFor, type ChildService, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { outputsByStep, waitForStatus } from '../fixtures/run-queries';

const WORKER = path.join(__dirname, '../fixtures/test-worker.ts');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every job of the test's queues that is neither completed nor failed (nothing may stay active or stalled). */
async function unfinishedJobs(queues: StepQueues): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [queue, counts] of await queues.depths()) {
    for (const state of ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children', 'failed'] as const) {
      if ((counts[state] ?? 0) > 0) out[`${queue}.${state}`] = counts[state]!;
    }
  }
  return out;
}

describe('worker operations: /metrics while a run moves, SIGTERM within the grace period', () => {
  let db: TestDatabase;
  let producer: TestEngine | undefined;
  const children: ChildService[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-ops-'));

  beforeAll(async () => {
    db = await prepareDatabase();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGKILL');
      await c.exited;
    }
    await producer?.close();
    producer = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  function start(env: Record<string, string>, label: string): ChildService {
    const c = startChildService(WORKER, env, label);
    children.push(c);
    return c;
  }

  it('a worker serves /healthz, /readyz and /metrics, where the searcher backlog rises and drains as the run moves', async () => {
    const prefix = uniquePrefix('metrics');
    const release = path.join(dir, 'release-retrieve');
    const port = await freePort();
    const env = processEnv(db, prefix, {
      METRICS_PORT: String(port),
      WORKER_CONCURRENCY: '1',
      // Retrieve shards wait for the test's word: the backlog is seen while they are held, not caught in passing.
      TEST_SCRIPT: JSON.stringify({ queries: 5, sources: 1, sections: 1, holdUntil: { '.retrieve.': release } }),
    });
    const worker = start(env, 'worker');
    await worker.waitForOutput(/test-worker ready/);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const backlog = async () => sample(await (await fetch(`${base}/metrics`)).text(), 'dossier_queue_backlog{queue="searcher"}');

    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'metrics', options: { maxIterations: 1 }, actor: 'test' });
    // Five retrieve shards on one slot, the first held: the backlog rises to several jobs...
    const peak = await waitFor(
      'the searcher backlog to rise',
      async () => {
        const jobs = (await backlog()) ?? 0;
        return jobs >= 2 && jobs;
      },
      { intervalMs: 50 },
    );
    expect(peak).toBeGreaterThanOrEqual(2);
    writeFileSync(release, '');
    await waitForStatus(db.url, run.id, 'completed');
    // ...and drains to zero once they run.
    await waitFor('the searcher backlog to drain', async () => (await backlog()) === 0, { intervalMs: 50 });
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'dossier_step_duration_seconds_count{node="retrieve",outcome="completed"}')).toBe(5);
    for (const s of SERVICE_NAMES) expect(sample(text, `dossier_queue_jobs{queue="${s}",state="active"}`)).toBe(0);
    expect(text).toMatch(/^process_cpu_seconds_total /m);

    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });

  it('SIGTERM mid-step: the worker finishes the step within the grace period and exits 0; another worker completes the run', async () => {
    const prefix = uniquePrefix('sigterm');
    const log = path.join(dir, 'finish.log');
    writeFileSync(log, '');
    const env = processEnv(db, prefix, {
      SHUTDOWN_GRACE_MS: '15000',
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 2, sources: 2, sections: 1, slow: { '.extract.0.1': 2500 } }),
    });
    const a = start(env, 'a');
    await a.waitForOutput(/test-worker ready/);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'sigterm', options: { maxIterations: 1 }, actor: 'test' });
    const victim = `${run.id}.extract.0.1`;
    await waitFor('the slow step to start', () => readFileSync(log, 'utf8').includes(victim));

    a.kill('SIGTERM');
    expect(await a.exited).toEqual({ code: 0, signal: null });
    expect(a.output()).toMatch(/test-worker stopped/);
    // The in-flight step was finished by the stopping worker, not abandoned.
    const [row] = await sql<{ status: string }>(db.url, 'SELECT status FROM node_executions WHERE step_key = $1', [victim]);
    expect(row?.status).toBe('completed');

    const b = start(env, 'b');
    await b.waitForOutput(/test-worker ready/);
    await waitForStatus(db.url, run.id, 'completed');
    expect((await outputsByStep(db.url)).get(victim)).toBe(1);
    expect(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.endsWith(victim)),
    ).toHaveLength(1);
    expect(await unfinishedJobs(producer.app.get(StepQueues))).toEqual({});
  });

  it('SIGTERM with a step longer than the grace period: the worker exits at the deadline, the step is released and completed once by another worker', async () => {
    const prefix = uniquePrefix('grace');
    const log = path.join(dir, 'release.log');
    writeFileSync(log, '');
    const env = processEnv(db, prefix, {
      SHUTDOWN_GRACE_MS: '1000',
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 2, sources: 2, sections: 1, slow: { '.extract.0.1': 5000 } }),
    });
    const a = start(env, 'a');
    await a.waitForOutput(/test-worker ready/);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'grace', options: { maxIterations: 1 }, actor: 'test' });
    const victim = `${run.id}.extract.0.1`;
    await waitFor('the slow step to start', () => readFileSync(log, 'utf8').includes(victim));

    a.kill('SIGTERM');
    expect((await a.exited).code).toBe(1);
    expect(a.output()).toMatch(/did not stop within 1000 ms/);
    const [row] = await sql<{ status: string }>(db.url, 'SELECT status FROM node_executions WHERE step_key = $1', [victim]);
    expect(row?.status).not.toBe('completed');

    // Without a fast second slot the step would never finish: the stall check hands it to b.
    const b = start({ ...env, TEST_SCRIPT: JSON.stringify({ queries: 2, sources: 2, sections: 1 }) }, 'b');
    await b.waitForOutput(/test-worker ready/);
    await waitForStatus(db.url, run.id, 'completed');
    expect((await outputsByStep(db.url)).get(victim)).toBe(1);
    const starts = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.endsWith(victim));
    expect(starts.map((l) => l.split(' ')[0])).toEqual([String(a.pid), String(b.pid)]);
    expect(await unfinishedJobs(producer.app.get(StepQueues))).toEqual({});
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startChildService, sql, waitFor, type ChildService, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

const WORKER = path.join(__dirname, '../fixtures/test-worker.ts');
const CONDUCTOR = path.resolve(__dirname, '../../../../apps/conductor/src/main.ts');

/**
 * Fault tests with workers as separate processes, as in production: SIGKILL mid-step, Redis FLUSHALL
 * mid-run, every worker restarted while a run waits at a gate. The test process only starts runs and
 * decides gates (a producer-only engine).
 */
describe('process faults (worker processes, real Redis and Postgres)', () => {
  let db: TestDatabase;
  let producer: TestEngine | undefined;
  const children: ChildService[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-'));

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

  function start(entry: string, env: Record<string, string>): ChildService {
    const c = startChildService(entry, env);
    children.push(c);
    return c;
  }

  /** step key → how many times a handler started it, across every process. */
  function invocationCounts(log: string, runId: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const key = line.split(' ')[2];
      if (key?.startsWith(runId)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** Steps a given process started. */
  function startedBy(log: string, pid: number): Set<string> {
    return new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith(`${pid} start `))
        .map((l) => l.split(' ')[2]!),
    );
  }

  async function completedBefore(url: string, runId: string, at: Date): Promise<string[]> {
    const rows = await sql<{ step_key: string }>(
      url,
      "SELECT step_key FROM node_executions WHERE run_id = $1 AND status = 'completed' AND completed_at < $2",
      [runId, at],
    );
    return rows.map((r) => r.step_key);
  }

  it('a worker killed with SIGKILL mid-step: the run completes, outputs exist once, no completed step ran again', async () => {
    const prefix = uniquePrefix('sigkill');
    const log = path.join(dir, 'sigkill.log');
    writeFileSync(log, '');
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 3, sources: 3, sections: 2, slow: { '.extract.0.1': 4000 } }),
    });
    const a = start(WORKER, env);
    await a.waitForOutput(/test-worker ready/);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'kill', options: { maxIterations: 2 }, actor: 'test' });
    const victim = `${run.id}.extract.0.1`;

    await waitFor('the slow step to start', () => readFileSync(log, 'utf8').includes(victim));
    a.kill('SIGKILL');
    const killedAt = Date.now();
    await a.exited;
    const doneAtKill = await completedBefore(db.url, run.id, new Date(killedAt));
    const b = start(WORKER, env);
    await b.waitForOutput(/test-worker ready/);
    await waitFor(
      'the killed step to complete elsewhere',
      async () => (await completedSteps(db.url, run.id)).includes(victim) || undefined,
    );
    const recoveryMs = Date.now() - killedAt;
    await waitForStatus(db.url, run.id, 'completed');

    const counts = invocationCounts(log, run.id);
    const outputs = await outputsByStep(db.url);
    const steps = await completedSteps(db.url, run.id);
    expect(counts.get(victim)).toBe(2);
    expect(steps.every((k) => outputs.get(k) === 1)).toBe(true);
    // No completed step ran again: every step completed before the kill ran exactly once.
    expect(doneAtKill.length).toBeGreaterThan(5);
    expect(doneAtKill.filter((k) => counts.get(k) !== 1)).toEqual([]);
    // A step ran twice only if it was in flight on the killed worker (concurrency 4: the victim and maybe others).
    const inFlightOnVictim = startedBy(log, a.pid);
    expect([...counts].filter(([k, n]) => n > 1 && (!inFlightOnVictim.has(k) || doneAtKill.includes(k)))).toEqual([]);
    // Reported, not asserted: how fast depends on the machine's load (npm run bench measures recovery).
    process.stdout.write(`SIGKILL recovery: ${recoveryMs} ms (lock 2000 ms, stalled interval 1000 ms, plus worker boot)\n`);
  });

  it("SIGKILL with a lock that would hold for minutes: the stall watch finds the worker's liveness lock gone and a standby worker takes the step", async () => {
    const prefix = uniquePrefix('watch');
    const log = path.join(dir, 'watch.log');
    writeFileSync(log, '');
    // BullMQ's own lock (10 min) cannot expire during the test: only the conductor's stall watch can move the step.
    // scope is held until the kill: it is surely in flight on the victim, however long the standby takes to boot.
    const release = path.join(dir, 'watch.release');
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, holdUntil: { '.scope.': release } }),
      STEP_LOCK_MS: '600000',
    });
    const victim = start(WORKER, env);
    const conductor = start(CONDUCTOR, env);
    await Promise.all([victim.waitForOutput(/test-worker ready/), conductor.waitForOutput(/conductor ready/)]);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'watch', options: { maxIterations: 1 }, actor: 'test' });
    const key = `${run.id}.scope.0.0`;
    await waitFor('scope to start', () => readFileSync(log, 'utf8').includes(key));
    const standby = start(WORKER, env);
    await standby.waitForOutput(/test-worker ready/);
    victim.kill('SIGKILL');
    await victim.exited;
    writeFileSync(release, '');
    await waitForStatus(db.url, run.id, 'completed');

    const released = conductor
      .output()
      .split('\n')
      .filter((line) => line.includes('released steps whose worker is gone'));
    expect(released.some((line) => line.includes(key))).toBe(true);
    expect(invocationCounts(log, run.id).get(key)).toBe(2);
    expect(startedBy(log, standby.pid).has(key)).toBe(true);
    const steps = await completedSteps(db.url, run.id);
    const outputs = await outputsByStep(db.url);
    expect(steps.every((k) => outputs.get(k) === 1)).toBe(true);
  });

  it('a step longer than the lock and one that blocks its event loop are not taken from their live worker', async () => {
    const prefix = uniquePrefix('healthy');
    const log = path.join(dir, 'healthy.log');
    writeFileSync(log, '');
    // scope waits 10 s on I/O (a slow model call) with an 8 s lock; perspectives blocks the loop for 2 s, ten
    // stall-watch scans (200 ms) long and within BullMQ's renewal margin (half the lock). Neither may be released,
    // stalled or run twice.
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, slow: { '.scope.': 10_000 }, block: { '.perspectives.': 2000 } }),
      STEP_LOCK_MS: '8000',
    });
    const worker = start(WORKER, env);
    const spare = start(WORKER, env);
    const conductor = start(CONDUCTOR, env);
    await Promise.all([
      worker.waitForOutput(/test-worker ready/),
      spare.waitForOutput(/test-worker ready/),
      conductor.waitForOutput(/conductor ready/),
    ]);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'healthy', options: { maxIterations: 1 }, actor: 'test' });
    await waitForStatus(db.url, run.id, 'completed');

    const counts = invocationCounts(log, run.id);
    expect(counts.get(`${run.id}.scope.0.0`)).toBe(1);
    expect(counts.get(`${run.id}.perspectives.0.0`)).toBe(1);
    expect(conductor.output()).not.toMatch(/released steps/);
    const queue = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    const jobs = await Promise.all([`${run.id}.scope.0.0`, `${run.id}.perspectives.0.0`].map((id) => queue.getJob(id)));
    await queue.close();
    expect(jobs.map((j) => j?.stalledCounter)).toEqual([0, 0]);
  });

  it('Redis FLUSHALL mid-run: the conductor re-enqueues from Postgres; the run completes; completed steps did not run again', async () => {
    const prefix = uniquePrefix('flush');
    const log = path.join(dir, 'flush.log');
    writeFileSync(log, '');
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 4, sources: 2, sections: 2, slow: { '.retrieve.0.': 1500 } }),
    });
    const w = start(WORKER, env);
    const c = start(CONDUCTOR, env);
    await Promise.all([w.waitForOutput(/test-worker ready/), c.waitForOutput(/conductor ready/)]);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'flush', options: { maxIterations: 2 }, actor: 'test' });

    await waitFor('retrieve shards to be running', () => readFileSync(log, 'utf8').includes(`${run.id}.retrieve.0.`));
    const redis = new Redis(REDIS_URL);
    await redis.flushall();
    await redis.quit();
    await waitForStatus(db.url, run.id, 'completed');

    const counts = invocationCounts(log, run.id);
    const outputs = await outputsByStep(db.url);
    const steps = await completedSteps(db.url, run.id);
    expect(steps.every((k) => outputs.get(k) === 1)).toBe(true);
    // Steps that were completed before the flush never ran again; only steps in flight may have run twice.
    const before = steps.filter((k) => /\.(scope|perspectives|questions|search_plan)\./.test(k));
    expect(before.map((k) => counts.get(k))).toEqual(before.map(() => 1));
    const conductorLog = c.output();
    expect(conductorLog).toMatch(/re-enqueued steps that had no live job/);
  });

  it('a run waits at the plan gate while every worker restarts; reject feedback reaches perspectives; approve completes it', async () => {
    const prefix = uniquePrefix('gate');
    const env = processEnv(db, prefix, { TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1 }) });
    const first = [start(WORKER, env), start(WORKER, env)];
    await Promise.all(first.map((w) => w.waitForOutput(/test-worker ready/)));
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({
      tenantId: TENANT,
      question: 'gate',
      options: { maxIterations: 1, gates: { plan: 'required', outline: 'auto', publish: 'auto' } },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'awaiting_approval');
    expect((await runStatus(db.url, run.id)).awaiting_gate).toBe('plan');

    // Every worker goes away (graceful stop) and new ones start: the waiting run holds none of them.
    for (const w of first) w.kill('SIGTERM');
    const exits = await Promise.all(first.map((w) => w.exited));
    expect(exits.map((e) => e.code)).toEqual([0, 0]);
    const second = [start(WORKER, env), start(WORKER, env)];
    await Promise.all(second.map((w) => w.waitForOutput(/test-worker ready/)));

    await producer.commands.decideGate(TENANT, run.id, 'plan', { decision: 'reject', feedback: 'Add a regulator perspective' }, 'reviewer');
    await waitFor('the revised plan to reach the gate', async () => {
      const rows = await sql<{ revision: number }>(
        db.url,
        "SELECT revision FROM approval_decisions WHERE run_id = $1 AND status = 'open'",
        [run.id],
      );
      return rows[0]?.revision === 1 || undefined;
    });
    const notes = await sql<{ note: string | null }>(db.url, 'SELECT note FROM test_outputs WHERE step_key = $1', [
      `${run.id}.perspectives.1.0`,
    ]);
    expect(notes).toEqual([{ note: 'Add a regulator perspective' }]);

    await producer.commands.decideGate(TENANT, run.id, 'plan', { decision: 'approve' }, 'reviewer');
    await waitForStatus(db.url, run.id, 'completed');
    await expect(producer.commands.decideGate(TENANT, run.id, 'plan', { decision: 'approve' }, 'reviewer')).rejects.toThrow(/not open/);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { startChildService, startTcpProxy, sql, waitFor, type ChildService, type TestDatabase, type TcpProxy } from '@dossier/testing';
import { prepareDatabase, processEnv, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, outputsByStep, waitForStatus } from '../fixtures/run-queries';

const WORKER = path.join(__dirname, '../fixtures/test-worker.ts');
const CONDUCTOR = path.resolve(__dirname, '../../../../apps/conductor/src/main.ts');

interface StepRow {
  status: string;
  attempts: number;
  lease_owner: string | null;
  lease_expired: boolean;
}

/**
 * Step ownership by a lease (docs/decisions/0070), with workers as separate processes: the owner of a step is a row,
 * not a held connection. A dead owner's step is taken over at once (its liveness lock is gone), a live but blocked
 * one is not, and an owner cut off from Postgres past its lease is fenced: the attempt that took over completes the
 * step, and the stale one's commit changes nothing. Every assertion is on state (rows, logs), none on time.
 */
describe('step leases (worker processes, real Redis and Postgres)', () => {
  let db: TestDatabase;
  let producer: TestEngine | undefined;
  const children: ChildService[] = [];
  const proxies: TcpProxy[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-leases-'));

  beforeAll(async () => {
    db = await prepareDatabase();
  });
  afterEach(async () => {
    for (const p of proxies.splice(0)) {
      p.heal();
      await p.close();
    }
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

  function start(entry: string, env: Record<string, string>, label?: string): ChildService {
    const c = startChildService(entry, env, label);
    children.push(c);
    return c;
  }

  const invocations = (log: string, key: string): number[] =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.endsWith(` start ${key}`))
      .map((l) => Number(l.split(' ')[0]));

  async function stepRow(key: string): Promise<StepRow> {
    const [row] = await sql<StepRow>(
      db.url,
      'SELECT status, attempts, lease_owner, lease_expires_at < now() AS lease_expired FROM node_executions WHERE step_key = $1',
      [key],
    );
    if (!row) throw new Error(`no execution row for ${key}`);
    return row;
  }

  /** Whether some session holds the liveness lock of this lease owner. */
  async function ownerAlive(owner: string): Promise<boolean> {
    const rows = await sql<{ n: number }>(
      db.url,
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid = hashtext('dossier.worker')::oid AND objid = hashtext($1)::oid`,
      [owner],
    );
    return rows[0]!.n > 0;
  }

  it("a SIGKILLed worker's step is taken over by another worker at once: a new attempt under a live owner, completed once", async () => {
    const prefix = uniquePrefix('lease-kill');
    const log = path.join(dir, 'kill.log');
    const release = path.join(dir, 'kill.release');
    writeFileSync(log, '');
    // BullMQ's lock and the lease (both STEP_LOCK_MS) last ten minutes: only the dead owner's missing liveness lock can
    // let the standby take the step (the stall watch moves the job, the start statement takes the row).
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, holdUntil: { '.scope.': release } }),
      STEP_LOCK_MS: '600000',
    });
    const victim = start(WORKER, env, 'victim');
    const conductor = start(CONDUCTOR, env, 'conductor');
    await Promise.all([victim.waitForOutput(/test-worker ready/), conductor.waitForOutput(/conductor ready/)]);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'lease kill', options: { maxIterations: 1 }, actor: 'test' });
    const key = `${run.id}.scope.0.0`;
    await waitFor('scope to start on the victim', () => invocations(log, key).length === 1 || undefined);
    const before = await stepRow(key);
    expect(before).toMatchObject({ status: 'running', attempts: 1, lease_expired: false });
    expect(await ownerAlive(before.lease_owner!)).toBe(true);

    const standby = start(WORKER, env, 'standby');
    await standby.waitForOutput(/test-worker ready/);
    victim.kill('SIGKILL');
    await victim.exited;
    writeFileSync(release, '');
    await waitForStatus(db.url, run.id, 'completed');

    const after = await stepRow(key);
    expect(after).toMatchObject({ status: 'completed', attempts: 2 });
    // Taken over by another owner, alive, before the victim's lease could expire.
    expect(after.lease_owner).not.toBe(before.lease_owner);
    expect(await ownerAlive(before.lease_owner!)).toBe(false);
    expect(await ownerAlive(after.lease_owner!)).toBe(true);
    expect(invocations(log, key)).toEqual([victim.pid, standby.pid]);
    const outputs = await outputsByStep(db.url);
    expect((await completedSteps(db.url, run.id)).every((k) => outputs.get(k) === 1)).toBe(true);
  });

  it('a worker that blocks its event loop for 2 s keeps its step: a second delivery meanwhile waits and finds it completed', async () => {
    const prefix = uniquePrefix('lease-blocked');
    const log = path.join(dir, 'blocked.log');
    writeFileSync(log, '');
    const env = processEnv(db, prefix, {
      TEST_LOG: log,
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, block: { '.perspectives.': 2000 } }),
      STEP_LOCK_MS: '8000',
    });
    const owner = start(WORKER, env, 'owner');
    const other = start(WORKER, env, 'other');
    const conductor = start(CONDUCTOR, env, 'conductor');
    await Promise.all([
      owner.waitForOutput(/test-worker ready/),
      other.waitForOutput(/test-worker ready/),
      conductor.waitForOutput(/conductor ready/),
    ]);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({
      tenantId: TENANT,
      question: 'lease blocked',
      options: { maxIterations: 1 },
      actor: 'test',
    });
    const key = `${run.id}.perspectives.0.0`;
    // The handler logs, then blocks its loop: the duplicate goes out while the owner cannot renew anything.
    await waitFor('perspectives to start', () => invocations(log, key).length === 1 || undefined, { intervalMs: 10 });
    const queue = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      await queue.add(
        'perspectives',
        { tenantId: TENANT, runId: run.id, node: 'perspectives', iteration: 0, shard: 0 },
        { jobId: `dup-${key}` },
      );
      await waitForStatus(db.url, run.id, 'completed');
      const dup = await waitFor('the duplicate to finish', async () => {
        const job = await queue.getJob(`dup-${key}`);
        return (await job?.isCompleted()) ? job : undefined;
      });
      // It met the step held by a live owner, postponed itself, and on its return found the step completed — or, when its
      // postponement outlasted this small run, the whole run completed (a quiet machine finishes it first): either way skipped.
      expect(dup!.returnvalue).toEqual({ status: 'skipped', reason: expect.stringMatching(/^(already completed|run completed)$/) });
      const original = await queue.getJob(key);
      expect(original?.stalledCounter).toBe(0);
    } finally {
      await queue.close();
    }
    expect(await stepRow(key)).toMatchObject({ status: 'completed', attempts: 1 });
    expect(invocations(log, key)).toHaveLength(1);
    expect(conductor.output()).not.toMatch(/released steps/);
  });

  it('a worker cut off from Postgres past its lease is fenced: the step is taken over, and the stale attempt commits nothing', async () => {
    const prefix = uniquePrefix('lease-partition');
    const log = path.join(dir, 'partition.log');
    const release = path.join(dir, 'partition.release');
    writeFileSync(log, '');
    const proxy = await startTcpProxy('127.0.0.1', Number(new URL(db.url).port || 5432));
    proxies.push(proxy);
    const proxied = new URL(db.url);
    proxied.port = String(proxy.port);
    const script = JSON.stringify({ queries: 1, sources: 1, sections: 1, holdUntil: { '.scope.': release } });
    // An 8 s lease (and BullMQ lock), renewed every ~2.7 s while the owner reaches Postgres (and Redis, which it keeps).
    const env = processEnv(db, prefix, { TEST_LOG: log, TEST_SCRIPT: script, STEP_LOCK_MS: '8000' });
    const stale = start(WORKER, { ...env, DATABASE_URL: proxied.toString() }, 'stale');
    await stale.waitForOutput(/test-worker ready/);
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({
      tenantId: TENANT,
      question: 'lease partition',
      options: { maxIterations: 1 },
      actor: 'test',
    });
    const key = `${run.id}.scope.0.0`;
    await waitFor('scope to start on the worker to be cut off', () => invocations(log, key).length === 1 || undefined);
    const owned = await stepRow(key);

    // The partition: the stale worker's sessions stay open on the server (its liveness lock is still held), but it
    // can renew nothing. Only the lease's expiry lets another worker take the step.
    proxy.partition();
    const fresh = start(WORKER, env, 'fresh');
    await fresh.waitForOutput(/test-worker ready/);
    await waitFor('the lease to expire', async () => (await stepRow(key)).lease_expired || undefined);
    expect(await ownerAlive(owned.lease_owner!)).toBe(true);
    const queue = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      // A second delivery (as the conductor's reconciler sends one when Redis lost the job).
      await queue.add('scope', { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 }, { jobId: `dup-${key}` });
      await waitFor('the fresh worker to take the step over', async () => ((await stepRow(key)).attempts === 2 ? true : undefined));
      writeFileSync(release, '');
      await waitFor('the taken-over attempt to complete', async () => ((await stepRow(key)).status === 'completed' ? true : undefined));
      // The stale worker's attempt now reaches Postgres and tries to commit.
      proxy.heal();
      const original = await waitFor('the stale attempt to finish', async () => {
        const job = await queue.getJob(key);
        return (await job?.isCompleted()) ? job : undefined;
      });
      // Whichever delivery of the original job finished it, the stale attempt's commit was refused.
      expect(original).toBeDefined();
      await stale.waitForOutput(new RegExp(`step ${key} attempt 1 was taken over by attempt 2; its outputs are discarded`));
    } finally {
      await queue.close();
    }
    await waitForStatus(db.url, run.id, 'completed');

    expect(invocations(log, key)).toEqual([stale.pid, fresh.pid]);
    const row = await stepRow(key);
    expect(row).toMatchObject({ status: 'completed', attempts: 2 });
    expect(row.lease_owner).not.toBe(owned.lease_owner);
    // One completion: one output row, one step_completed event, one decided next step.
    expect((await outputsByStep(db.url)).get(key)).toBe(1);
    const completed = await sql<{ n: number }>(
      db.url,
      "SELECT count(*)::int AS n FROM run_events WHERE run_id = $1 AND type = 'step_completed' AND data->>'node' = 'scope'",
      [run.id],
    );
    expect(completed[0]!.n).toBe(1);
    const decided = await sql<{ n: number }>(db.url, 'SELECT count(*)::int AS n FROM outbox WHERE run_id = $1 AND cause_key = $2', [
      run.id,
      key,
    ]);
    expect(decided[0]!.n).toBe(1);
  });
});

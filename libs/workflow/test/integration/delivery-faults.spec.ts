import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { stepKey } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { OutboxSender } from '../../src';
import { prepareDatabase, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

describe('delivery faults (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let producer: TestEngine | undefined;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-')), 'invocations.log');
  const prefix = uniquePrefix('faults');

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_LOG'] = log;
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 1, sources: 1, sections: 1, slow: { '.scope.': 300 } });
    // Starts runs; each test starts the worker it needs (every delivery goes through the transport).
    producer = await startEngine(db, prefix, []);
  });
  afterAll(async () => {
    await producer?.close();
    await db?.drop();
  });

  const invocations = (key: string) =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.endsWith(` ${key}`)).length;

  /** A job for `payload` under an id of its own: a second delivery of the same step, as BullMQ may give it (a stall). */
  async function deliver(queue: Queue, name: string, payload: object, jobId: string): Promise<void> {
    await queue.add(name, payload, { jobId, attempts: 3, backoff: { type: 'classified', delay: 10 } });
  }

  const finished = (queue: Queue, jobId: string) =>
    waitFor(`job ${jobId} to finish`, async () => {
      const state = await queue.getJobState(jobId);
      return state === 'completed' || state === 'failed' ? queue.getJob(jobId) : undefined;
    });

  it('the same step delivered twice (concurrently, then again after completion) runs once with one set of outputs', async () => {
    const worker = await startEngine(db, prefix, ['planner']);
    const queue = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      const run = await producer!.commands.start({ tenantId: TENANT, question: 'twice', actor: 'test' });
      const payload = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 };
      const key = stepKey(payload as never);
      // Beside the job the run enqueued (id = step key): a second delivery while the first runs (scope takes 300 ms).
      await deliver(queue, 'scope', payload, `again-${key}`);
      const [first, second] = await Promise.all([finished(queue, key), finished(queue, `again-${key}`)]);
      // One ran; the other found the step held and postponed itself, then found it completed.
      const results = [first!.returnvalue, second!.returnvalue] as { status: string; reason?: string }[];
      expect(results.filter((r) => r.status === 'completed')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'skipped')).toEqual([{ status: 'skipped', reason: 'already completed' }]);
      await deliver(queue, 'scope', payload, `after-${key}`);
      expect((await finished(queue, `after-${key}`))!.returnvalue).toEqual({ status: 'skipped', reason: 'already completed' });

      expect(invocations(key)).toBe(1);
      expect((await outputsByStep(db.url)).get(key)).toBe(1);
      const rows = await sql<{ status: string; attempts: number }>(
        db.url,
        'SELECT status, attempts FROM node_executions WHERE step_key = $1',
        [key],
      );
      expect(rows).toEqual([{ status: 'completed', attempts: 1 }]);
    } finally {
      await queue.close();
      await worker.close();
    }
  });

  it('a payload that fails validation fails its run unrecoverably with the reason; an unknown node is refused', async () => {
    const worker = await startEngine(db, prefix, ['planner']);
    const queue = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      const run = await producer!.commands.start({ tenantId: TENANT, question: 'bad payload', actor: 'test' });
      const bad = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: -1, shard: 0 };
      await deliver(queue, 'scope', bad, 'bad-iteration');
      const refused = await finished(queue, 'bad-iteration');
      expect({ attempts: refused!.attemptsMade, reason: refused!.failedReason }).toEqual({
        attempts: 1,
        reason: expect.stringMatching(/Invalid step job: .*iteration/),
      });
      await waitForStatus(db.url, run.id, 'failed');
      expect((await runStatus(db.url, run.id)).failure_reason).toMatch(/iteration/);

      const queues = producer!.app.get(StepQueues);
      await expect(queues.enqueue({ ...bad, iteration: 0, node: 'teleport' } as never)).rejects.toThrow(/Refusing to enqueue/);
      const other = await producer!.commands.start({ tenantId: TENANT, question: 'unknown node', actor: 'test' });
      await deliver(queue, 'teleport', { ...bad, runId: other.id, iteration: 0, node: 'teleport' }, 'teleport');
      const teleport = await finished(queue, 'teleport');
      expect({ attempts: teleport!.attemptsMade, reason: teleport!.failedReason }).toEqual({
        attempts: 1,
        reason: expect.stringMatching(/no handler for node "teleport"/),
      });
      await waitForStatus(db.url, other.id, 'failed');
    } finally {
      await queue.close();
      await worker.close();
    }
  });

  it('a bad payload on a real worker is not retried (one attempt)', async () => {
    const worker = await startEngine(db, prefix, ['planner']);
    const q = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      await q.add('scope', { node: 'scope', nonsense: true }, { jobId: 'bad-1', attempts: 5, backoff: { type: 'classified', delay: 10 } });
      // The state first, then the job: a job object read before the failure was recorded would be stale.
      await waitFor('the bad job to fail', async () => (await q.getJobState('bad-1')) === 'failed' || undefined);
      const job = (await q.getJob('bad-1'))!;
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/Invalid step job/);
    } finally {
      await q.close();
      await worker.close();
    }
  });

  it('a crash between commit and enqueue (simulated) is healed by the relay, and the run completes', async () => {
    const run = await producer!.commands.start({ tenantId: TENANT, question: 'relay', actor: 'test' });
    const worker = await startEngine(db, prefix);
    const workerSender = worker.app.get(OutboxSender);
    // The worker that completes `scope` "dies" after its commit: its enqueue never happens.
    const original = workerSender.send.bind(workerSender);
    let dropped = 0;
    jest.spyOn(workerSender, 'send').mockImplementation(async (rows) => {
      if (rows.some((r) => r.node === 'perspectives') && dropped === 0) {
        dropped++;
        return 0;
      }
      return original(rows);
    });
    try {
      const pending = await waitFor('the committed but unsent perspectives step', async () => {
        const rows = await sql<{ status: string }>(db.url, "SELECT status FROM outbox WHERE run_id = $1 AND node = 'perspectives'", [
          run.id,
        ]);
        return rows[0]?.status === 'pending' ? rows : undefined;
      });
      expect(pending).toHaveLength(1);
      expect(dropped).toBe(1);
      // The relay sends every pending row of every running run: rows the earlier tests' runs left may go with it, so
      // what is asserted is that this run's dropped row went out through it.
      const relayed = await producer!.reconciler.relay(0);
      expect(relayed).toBeGreaterThanOrEqual(1);
      const after = await sql<{ status: string }>(db.url, "SELECT status FROM outbox WHERE run_id = $1 AND node = 'perspectives'", [
        run.id,
      ]);
      expect(after.map((r) => r.status)).toEqual(['sent']);
      await waitForStatus(db.url, run.id, 'completed');
    } finally {
      await worker.close();
    }
  });
});

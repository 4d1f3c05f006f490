import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { stepKey, type NodeName } from '@dossier/contracts';
import { InvalidStepPayloadError } from '@dossier/errors';
import { StepQueues, type JobControl } from '@dossier/queue';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { OutboxSender } from '../../src';
import { HANDLERS } from '../fixtures/test-handlers';
import { prepareDatabase, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

/** Stands in for BullMQ's job when a test delivers a step to the runner by hand. */
function control(attempt = 1, maxAttempts = 3): JobControl & { postponed: number } {
  const c = {
    attempt,
    maxAttempts,
    postponed: 0,
    postpone: async () => {
      c.postponed++;
      return new Error('postponed');
    },
  };
  return c;
}

describe('delivery faults (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let producer: TestEngine | undefined;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-')), 'invocations.log');
  const prefix = uniquePrefix('faults');

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_LOG'] = log;
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 1, sources: 1, sections: 1, slow: { '.scope.': 300 } });
    // Consumes nothing: jobs stay in Redis, and the tests deliver them to the step runner by hand.
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

  const handlersFor = (node: NodeName): Map<NodeName, object> => new Map([[node, new (HANDLERS.get(node)!)()]]);

  it('the same step delivered twice (concurrently, then again after completion) runs once with one set of outputs', async () => {
    const run = await producer!.commands.start({ tenantId: TENANT, question: 'twice', actor: 'test' });
    const payload = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 };
    const key = stepKey(payload as never);
    const handlers = handlersFor('scope');
    const c1 = control();
    const c2 = control();
    const both = await Promise.allSettled([
      producer!.runner.process(payload, handlers, c1),
      producer!.runner.process(payload, handlers, c2),
    ]);
    // One ran; the other found the step held and postponed itself (or found it completed).
    expect(both.filter((r) => r.status === 'fulfilled' && (r.value as { status: string }).status === 'completed')).toHaveLength(1);
    const third = await producer!.runner.process(payload, handlers, control());
    expect(third).toEqual({ status: 'skipped', reason: 'already completed' });

    expect(invocations(key)).toBe(1);
    expect((await outputsByStep(db.url)).get(key)).toBe(1);
    const rows = await sql<{ status: string; attempts: number }>(
      db.url,
      'SELECT status, attempts FROM node_executions WHERE step_key = $1',
      [key],
    );
    expect(rows).toEqual([{ status: 'completed', attempts: 1 }]);
  });

  it('a payload that fails validation fails its run unrecoverably with the reason; an unknown node is refused', async () => {
    const run = await producer!.commands.start({ tenantId: TENANT, question: 'bad payload', actor: 'test' });
    const bad = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: -1, shard: 0 };
    await expect(producer!.runner.process(bad, new Map(), control())).rejects.toThrow(InvalidStepPayloadError);
    const status = await runStatus(db.url, run.id);
    expect(status.status).toBe('failed');
    expect(status.failure_reason).toMatch(/iteration/);

    const queues = producer!.app.get(StepQueues);
    await expect(queues.enqueue({ ...bad, iteration: 0, node: 'teleport' } as never)).rejects.toThrow(/Refusing to enqueue/);
    await expect(producer!.runner.process({ ...bad, iteration: 0, node: 'teleport' }, new Map(), control())).rejects.toThrow(
      /unknown node "teleport"/,
    );
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

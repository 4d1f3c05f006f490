import { Queue } from 'bullmq';
import { loadConfig, WorkerEnv } from '@dossier/config';
import { SERVICE_NAMES } from '@dossier/contracts';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { engineSettingsFromEnv } from '../../src';
import { prepareDatabase, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { runStatus, waitForStatus } from '../fixtures/run-queries';

const SMALL = { queries: 1, sources: 1, sections: 1, gains: [0.01], failing: [0] };
const OPTIONS = { maxIterations: 1, maxRepairRounds: 0 };

/** Ids of every job, in any state, of every queue under `prefix`. */
async function jobIds(prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (const service of SERVICE_NAMES) {
    const q = new Queue(service, { connection: { url: REDIS_URL }, prefix });
    for (const job of await q.getJobs(['completed', 'failed', 'waiting', 'delayed', 'active'])) if (job?.id) ids.push(job.id);
    await q.close();
  }
  return ids;
}

/** Issue 28: two databases on one Redis never share jobs; a job of another database's run is left on the queue, not failed. */
describe('queue prefixes and foreign jobs (two databases, one Redis)', () => {
  const dbs: TestDatabase[] = [];
  const engines: TestEngine[] = [];

  beforeAll(async () => {
    process.env['TEST_SCRIPT'] = JSON.stringify(SMALL);
    dbs.push(await prepareDatabase(), await prepareDatabase());
  });
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
  });
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  it('with QUEUE_PREFIX unset, each database gets its own prefix and its queues hold only its own runs', async () => {
    const prefixes = dbs.map((db) => engineSettingsFromEnv(loadConfig(WorkerEnv, { DATABASE_URL: db.url, REDIS_URL }), []).queuePrefix);
    expect(prefixes[0]).not.toBe(prefixes[1]);
    for (const [i, db] of dbs.entries()) engines.push(await startEngine(db, prefixes[i]!));
    const runs = await Promise.all(
      engines.map((e) => e.commands.start({ tenantId: TENANT, question: 'Whose step is it?', options: OPTIONS, actor: 'test' })),
    );
    for (const [i, db] of dbs.entries()) await waitForStatus(db.url, runs[i]!.id, 'completed');
    for (const [i, prefix] of prefixes.entries()) {
      const ids = await jobIds(prefix);
      expect(ids.length).toBeGreaterThan(5);
      expect(ids.filter((id) => !id.startsWith(runs[i]!.id))).toEqual([]);
    }
  });

  it('one QUEUE_PREFIX for two databases: a worker leaves the other database’s job on the queue, and that run completes', async () => {
    const prefix = uniquePrefix('shared');
    // Only database 1's workers consume: run 0's first step can go nowhere else.
    const producer0 = await startEngine(dbs[0]!, prefix, []);
    const workers1 = await startEngine(dbs[1]!, prefix);
    engines.push(producer0, workers1);
    const run = await producer0.commands.start({ tenantId: TENANT, question: 'Whose step is it?', options: OPTIONS, actor: 'test' });
    const first = new Queue('planner', { connection: { url: REDIS_URL }, prefix });
    try {
      // Refused (moved to delayed), without an attempt used; the run it belongs to is untouched.
      await waitFor('the foreign step to be refused', async () =>
        (await first.getJobState(`${run.id}.scope.0.0`)) === 'delayed' ? true : undefined,
      );
      expect((await first.getJob(`${run.id}.scope.0.0`))!.attemptsMade).toBe(0);
      expect(await runStatus(dbs[0]!.url, run.id)).toMatchObject({ status: 'running', failure_reason: null });
      const stepsIn1 = await sql<{ n: string }>(dbs[1]!.url, 'SELECT count(*) AS n FROM node_executions WHERE run_id = $1', [run.id]);
      expect(Number(stepsIn1[0]!.n)).toBe(0);
      // Database 0's workers take over (database 1's stop: each refusal would otherwise cost the run a retry delay): the
      // refused job is still there, and the run completes with nothing failed on any queue.
      await engines.splice(engines.indexOf(workers1), 1)[0]!.close();
      engines.push(await startEngine(dbs[0]!, prefix));
      await waitForStatus(dbs[0]!.url, run.id, 'completed');
      expect(await first.getJobCountByTypes('failed')).toBe(0);
    } finally {
      await first.close();
    }
  });
});

import { Queue } from 'bullmq';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { NestFactory } from '@nestjs/core';
import { RunCommands } from '@dossier/runs';
import { createStepMicroservice, Reconciler, type EngineSettings } from '../../src';
import { prepareDatabase, REDIS_URL, settingsFor, TENANT, uniquePrefix } from '../fixtures/engine';
import { runStatus, waitForStatus } from '../fixtures/run-queries';
import { TestWorkerModule } from '../fixtures/test-handlers';
import type { INestApplicationContext } from '@nestjs/common';

const SMALL = { queries: 1, sources: 1, sections: 1, gains: [0.01], failing: [0] };
const OPTIONS = { maxIterations: 1, maxRepairRounds: 0, engine: 'openai' as const };
const ENDPOINT_X = { baseUrl: 'http://127.0.0.1:1/v1', model: 'model-x' };
const ENDPOINT_Y = { baseUrl: 'http://127.0.0.1:2/v1', model: 'model-y' };

/** Decisions 0075 and 0076 at the engine: whose runs a process advances, and which model steps a worker takes. */
describe('run hosts and model endpoints (test handlers, real Redis and Postgres)', () => {
  let db: TestDatabase;
  const apps: INestApplicationContext[] = [];

  async function engine(settings: EngineSettings): Promise<INestApplicationContext> {
    const module = TestWorkerModule.registerWith(settings, []);
    const app =
      settings.consume.length > 0
        ? (await createStepMicroservice(module)).app
        : await NestFactory.createApplicationContext(module, { logger: false });
    await app.init();
    apps.push(app);
    return app;
  }
  async function close(app: INestApplicationContext): Promise<void> {
    apps.splice(apps.indexOf(app), 1);
    await app.close();
  }

  beforeAll(async () => {
    process.env['TEST_SCRIPT'] = JSON.stringify(SMALL);
    db = await prepareDatabase();
  });
  afterEach(async () => {
    for (const app of apps.splice(0).reverse()) await app.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a run records the endpoint it started with; a deployed worker configured for another leaves its model steps on the queue', async () => {
    const prefix = uniquePrefix('endpoint');
    const producer = await engine({ ...settingsFor(db, prefix, []), modelEndpoint: ENDPOINT_Y });
    const x = await engine({ ...settingsFor(db, prefix), modelEndpoint: ENDPOINT_X });
    const run = await producer.get(RunCommands).start({ tenantId: TENANT, question: 'Which model?', options: OPTIONS, actor: 'test' });
    const stored = await sql<{ model_endpoint: unknown; hosted_by: string | null }>(
      db.url,
      'SELECT model_endpoint, hosted_by FROM research_runs WHERE id = $1',
      [run.id],
    );
    expect(stored[0]).toEqual({ model_endpoint: ENDPOINT_Y, hosted_by: null });
    // Worker X takes the first step (a model step: scope calls the Research Director) and leaves it, no attempt used.
    const planner = new Queue('planner', { connection: { url: REDIS_URL }, prefix });
    try {
      await waitFor('worker X to leave the scope step', async () =>
        (await planner.getJobState(`${run.id}.scope.0.0`)) === 'delayed' ? true : undefined,
      );
      expect((await planner.getJob(`${run.id}.scope.0.0`))!.attemptsMade).toBe(0);
    } finally {
      await planner.close();
    }
    expect(await runStatus(db.url, run.id)).toMatchObject({ status: 'running', failure_reason: null });
    // A worker configured for Y takes it, and every step after it: the run completes.
    await close(x);
    await engine({ ...settingsFor(db, prefix), modelEndpoint: ENDPOINT_Y });
    await waitForStatus(db.url, run.id, 'completed');
  });

  it('the first model step records its worker’s endpoint when the starting process had none', async () => {
    const prefix = uniquePrefix('endpoint-first');
    const app = await engine({ ...settingsFor(db, prefix), modelEndpoint: ENDPOINT_X });
    const producer = await engine({ ...settingsFor(db, prefix, []), modelEndpoint: null });
    const run = await producer.get(RunCommands).start({ tenantId: TENANT, question: 'Which model?', options: OPTIONS, actor: 'test' });
    await waitForStatus(db.url, run.id, 'completed');
    const stored = await sql<{ model_endpoint: unknown }>(db.url, 'SELECT model_endpoint FROM research_runs WHERE id = $1', [run.id]);
    expect(stored[0]!.model_endpoint).toEqual(ENDPOINT_X);
    await close(app);
  });

  it('a local host’s run is advanced by no other process: the deployment’s reconciler and relay leave it alone', async () => {
    const prefix = uniquePrefix('hosts');
    // A local process that started a run and died before its workers took anything: its steps are decided, not done.
    const local = await engine({ ...settingsFor(db, prefix, []), host: 'cli-test0001', queuePrefix: `${prefix}-cli-test0001` });
    const run = await local
      .get(RunCommands)
      .start({ tenantId: TENANT, question: 'Whose run?', options: { maxIterations: 1 }, actor: 'test' });
    await close(local);
    expect((await sql<{ hosted_by: string }>(db.url, 'SELECT hosted_by FROM research_runs WHERE id = $1', [run.id]))[0]!.hosted_by).toBe(
      'cli-test0001',
    );
    const deployment = await engine(settingsFor(db, prefix));
    const reconciler = deployment.get(Reconciler);
    expect(await reconciler.reconcile(5_000, run.id)).toEqual({ checked: 0, reenqueued: 0 });
    expect(await reconciler.relay(0)).toBe(0);
    const steps = await sql<{ n: string }>(db.url, 'SELECT count(*) AS n FROM node_executions WHERE run_id = $1', [run.id]);
    expect(Number(steps[0]!.n)).toBe(0);
    // Taken over by a process of its own (the host is gone): that one advances it.
    const next = await engine({ ...settingsFor(db, prefix), host: 'cli-test0002', queuePrefix: `${prefix}-cli-test0002` });
    await next.get(RunCommands).adopt(TENANT, run.id, 'test');
    await waitForStatus(db.url, run.id, 'completed');
  });
});

import path from 'node:path';
import { Client } from 'pg';
import { FakeOpenAIServer, startChildService, sql, waitFor, type ChildService, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, settingsFor, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { waitForStatus } from '../fixtures/run-queries';

const WORKER = path.join(__dirname, '../fixtures/test-worker.ts');
/** 100 in `npm test`; `npm run bench -- connections` runs it at 200 (issue 31's figure). Even, split over the workers. */
const STEPS = Number(process.env['CONNECTION_STEPS'] ?? 100);
const WORKERS = 2;
const POOL = 4;

/**
 * Postgres connections do not grow with the steps that wait (issue 31, docs/decisions/0070): 100 steps held on a slow
 * model at once (200 with `npm run bench -- connections`), across two worker processes of concurrency STEPS / 2, while the connections of the test database are
 * counted. A step owns its row by a lease, not a held connection, so the count stays within what the processes' pools
 * and liveness connections allow; with a connection per running step (decision 0002) it was above 100.
 */
describe('connections while model-bound steps wait (worker processes, real Redis and Postgres)', () => {
  let db: TestDatabase;
  let model: FakeOpenAIServer | undefined;
  let producer: TestEngine | undefined;
  const children: ChildService[] = [];

  beforeAll(async () => {
    db = await prepareDatabase();
  });
  afterAll(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGKILL');
      await c.exited;
    }
    await producer?.close();
    await model?.stop();
    await db?.drop();
  });

  it(`${STEPS} steps waiting on the model at once hold no more connections than the pools`, async () => {
    let open!: () => void;
    const answering = new Promise<void>((resolve) => (open = resolve));
    model = await new FakeOpenAIServer({ answer: () => ({ ok: true }), gate: () => answering }).start();
    const prefix = uniquePrefix('connections');
    const env = processEnv(db, prefix, {
      TEST_SCRIPT: JSON.stringify({ queries: STEPS, sources: 1, sections: 1, model: { fragment: '.retrieve.', baseUrl: model.baseUrl } }),
      WORKER_CONCURRENCY: String(STEPS / WORKERS),
      DATABASE_POOL_MAX: String(POOL),
      // Ample: nothing here may expire while the steps wait (the test waits for states, not times).
      STEP_LOCK_MS: '600000',
    });
    for (let i = 0; i < WORKERS; i++) children.push(startChildService(WORKER, env, `worker ${i}`));
    await Promise.all(children.map((c) => c.waitForOutput(/test-worker ready/)));
    producer = await startEngine(db, prefix, []);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'connections', options: { maxIterations: 1 }, actor: 'test' });

    const counter = new Client({ connectionString: db.url });
    await counter.connect();
    let most = 0;
    try {
      const connections = async (): Promise<number> => {
        const { rows } = await counter.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()',
        );
        most = Math.max(most, rows[0]!.n);
        return rows[0]!.n;
      };
      const waiting = (): number => model!.requests.filter((r) => r.answeredAt === undefined).length;
      // Counted all along while the steps arrive, and again with every one of them waiting on the model.
      await waitFor(`${STEPS} model requests in flight`, async () => (await connections(), waiting() === STEPS || undefined), {
        intervalMs: 25,
      });
      const running = await sql<{ n: number }>(
        db.url,
        "SELECT count(*)::int AS n FROM node_executions WHERE run_id = $1 AND node = 'retrieve' AND status = 'running'",
        [run.id],
      );
      expect(running[0]!.n).toBe(STEPS);
      for (let i = 0; i < 10; i++) await connections();
    } finally {
      open();
      await counter.end();
    }
    await waitForStatus(db.url, run.id, 'completed');

    // Each worker process: its Prisma pool and one liveness connection; the producer: its pool; this test: one.
    const bound = WORKERS * (POOL + 1) + settingsFor(db, prefix).databasePoolMax + 1;
    process.stdout.write(`connections of the test database with ${STEPS} model-bound steps in flight: at most ${most} (bound ${bound})\n`);
    expect(most).toBeLessThanOrEqual(bound);
    expect(model.requests.filter((r) => r.stepKey?.includes('.retrieve.'))).toHaveLength(STEPS);
  });
});

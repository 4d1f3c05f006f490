import { createTestDatabase, sql, waitFor, type TestDatabase } from '@dossier/testing';
import { StepLocks } from '../../src/runner/step-locks';

/**
 * The step lock's connection is held for the whole step. When Postgres drops it (a restart, a failover, an
 * operator's pg_terminate_backend) the worker must live on: found by the chaos soak, where a Postgres outage
 * crashed the planner with an unhandled 'error' event on the held client.
 */
describe('StepLocks when Postgres drops the held connection', () => {
  let db: TestDatabase;
  let locks: StepLocks;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown): void => {
    uncaught.push(err);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    locks = new StepLocks({ databaseUrl: db.url, lockPoolMax: 4, busyRetryMs: 100, txTimeoutMs: 5_000 });
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await locks?.onModuleDestroy();
    await db?.drop();
  });

  it('survives the loss of the lock connection; the lock is free again and release() still resolves', async () => {
    const key = 'run.scope.0.0';
    const held = await locks.tryAcquire(key);
    expect(held).not.toBeNull();
    expect(await locks.tryAcquire(key)).toBeNull();

    const [holder] = await sql<{ pid: number }>(
      db.url,
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(holder).toBeDefined();
    await sql(db.url, 'SELECT pg_terminate_backend($1)', [holder!.pid]);

    // Postgres released the lock with the connection: another worker can take the step.
    const again = await waitFor('the step lock to be free', () => locks.tryAcquire(key).then((l) => l ?? undefined), { intervalMs: 100 });
    await expect(held!.release()).resolves.toBeUndefined();
    await again.release();
    // Give the dead socket's 'error' event time to surface, then check nothing escaped.
    await new Promise((r) => setTimeout(r, 200));
    expect(uncaught).toEqual([]);
  });
});

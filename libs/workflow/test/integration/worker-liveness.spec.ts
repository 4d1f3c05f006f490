import { createTestDatabase, sql, startTcpProxy, waitFor, type TcpProxy, type TestDatabase } from '@dossier/testing';
import { PrismaService } from '@dossier/db';
import { WorkerLivenessLocks } from '../../src/runner/worker-liveness-locks';
import type { WorkflowOptions } from '../../src/workflow-options';

/**
 * A worker's liveness lock must outlast its database's outages (found by the chaos soak): a service restarted while
 * Postgres was down died at start ("connect ECONNREFUSED"), and a service whose lock connection Postgres dropped
 * kept serving with no lock, so the conductor's stall watch would take every job it started as a dead worker's.
 */
describe('worker liveness locks across Postgres outages', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let prisma: PrismaService;
  let locks: WorkerLivenessLocks | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    prisma = new PrismaService({ url: db.url });
  });
  afterEach(async () => {
    await locks?.onModuleDestroy();
    locks = undefined;
    proxy.restore();
  });
  afterAll(async () => {
    await proxy?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  function through(p: TcpProxy): WorkflowOptions {
    const url = new URL(db.url);
    url.port = String(p.port);
    return { databaseUrl: url.toString() } as WorkflowOptions;
  }

  const unheld = (ids: string[]) => new WorkerLivenessLocks({ databaseUrl: db.url } as WorkflowOptions, prisma).unheld(ids);

  it('holding waits for a database that is down at start, then holds', async () => {
    proxy.cut();
    locks = new WorkerLivenessLocks(through(proxy), prisma);
    const holding = locks.hold(['w-start']);
    await waitFor('a refused connection', () => (proxy.refused > 0 ? true : undefined), { intervalMs: 50 });
    expect(await unheld(['w-start'])).toEqual(['w-start']);
    proxy.restore();
    await holding;
    expect(await unheld(['w-start'])).toEqual([]);
  });

  it('a dropped lock connection is re-established and the locks held again', async () => {
    locks = new WorkerLivenessLocks(through(proxy), prisma);
    await locks.hold(['w-a', 'w-b']);
    expect(await unheld(['w-a', 'w-b'])).toEqual([]);
    proxy.cut();
    await waitFor('the locks to go with the connection', async () => ((await unheld(['w-a', 'w-b'])).length === 2 ? true : undefined), {
      intervalMs: 50,
    });
    proxy.restore();
    await waitFor('the locks held again', async () => ((await unheld(['w-a', 'w-b'])).length === 0 ? true : undefined), { intervalMs: 50 });
    const holders = await sql<{ n: number }>(
      db.url,
      // This database's locks only: the server is shared with other tests' workers.
      "SELECT count(DISTINCT pid)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = hashtext('dossier.worker')::oid AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(holders[0]!.n).toBe(1);
  });
});

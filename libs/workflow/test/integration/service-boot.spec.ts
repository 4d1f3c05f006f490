import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NAMES } from '@dossier/contracts';
import { sql, startChildService, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, uniquePrefix } from '../fixtures/engine';

const APPS = path.resolve(__dirname, '../../../../apps');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
const WORKER = path.join(__dirname, '../fixtures/test-worker.ts');

describe('service processes: boot checks and clean shutdown', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await prepareDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a service that owns a node with no handler refuses to start, naming the node', async () => {
    const env = { ...processEnv(db, uniquePrefix('boot')), TEST_SERVICES: 'planner,claims', TEST_OMIT_HANDLERS: 'perspectives,moderate' };
    const child = startChildService(WORKER, env, 'worker');
    expect((await child.exited).code).toBe(1);
    expect(child.output()).toContain('test-worker: Cannot start service(s) planner, claims: no handler for node(s) perspectives, moderate');
  });

  it('a node with two handlers refuses to start, naming both', async () => {
    const env = { ...processEnv(db, uniquePrefix('boot2')), TEST_SERVICES: 'writer', TEST_DUPLICATE_HANDLER: 'draft' };
    const child = startChildService(WORKER, env, 'worker');
    expect((await child.exited).code).toBe(1);
    expect(child.output()).toMatch(/node draft has 2 handlers \(Test_draft_Handler, Test_draft_Handler\)/);
  });

  it('a missing or malformed variable fails the boot, naming it', async () => {
    const env = { ...processEnv(db, uniquePrefix('cfg')), DATABASE_URL: '', REDIS_URL: 'http://not-redis', STEP_LOCK_MS: 'soon' };
    const child = startChildService(path.join(APPS, 'conductor/src/main.ts'), env, 'conductor');
    expect((await child.exited).code).toBe(1);
    expect(child.output()).toMatch(
      /conductor: Invalid configuration: DATABASE_URL: required but not set; REDIS_URL: must be a valid URL; STEP_LOCK_MS: /,
    );
  });

  it('a service (the conductor, the gateway) against a database missing a migration of its build refuses to start, naming it', async () => {
    const old = await prepareDatabase();
    try {
      // The database as the previous release left it: the newest migration not applied yet.
      const [last] = await sql<{ migration_name: string }>(
        old.url,
        'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING migration_name',
      );
      const env = processEnv(old, uniquePrefix('schema'));
      for (const service of ['conductor', 'gateway']) {
        const child = startChildService(path.join(APPS, service, 'src/main.ts'), { ...env, PORT: '0' }, service);
        expect((await child.exited).code).toBe(1);
        expect(child.output()).toContain(`${service}: The database schema is older than this build: 1 of its`);
        expect(child.output()).toContain(
          `migrations not applied (${last!.migration_name}). Apply them first: bash tools/prisma.sh migrate deploy`,
        );
        expect(child.output()).not.toMatch(/ready|listening/);
      }
    } finally {
      await old.drop();
    }
  });

  it('every service (each stage service and the conductor) boots with its handlers and stops cleanly on SIGTERM', async () => {
    const env = processEnv(db, uniquePrefix('up'), { VECTOR_DIR: path.join(tmpdir(), db.name, 'vectors') });
    for (const service of [...SERVICE_NAMES, 'conductor']) {
      const port = await freePort();
      const child = startChildService(path.join(APPS, service, 'src/main.ts'), { ...env, METRICS_PORT: String(port) }, service);
      await child.waitForOutput(new RegExp(`${service} ready`));
      // What the Kubernetes probes and Prometheus read.
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toMatch(/^dossier_queue_backlog\{queue="/m);
      child.kill('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.output()).toMatch(new RegExp(`${service} stopped`));
    }
  });
});

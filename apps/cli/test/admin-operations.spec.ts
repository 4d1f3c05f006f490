import { createServer } from 'node:net';
import path from 'node:path';
import { ApiKeyRepository, PrismaService } from '@dossier/db';
import { createTestDatabase, REPO_ROOT, sql, startChildService, uniquePrefix, type TestDatabase } from '@dossier/testing';
import { CLI, cliRunner } from './cli-harness';

const KEY = /^(dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43})$/m;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The operator's way in (`admin bootstrap`) and the migration gate (`admin schema`), as the Jobs and init containers run them. */
describe('dossier admin bootstrap and schema (real Postgres, the real CLI process)', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('bootstrap on an empty database: two at once make one tenant and one admin key, printed once; later runs create nothing', async () => {
    const [a, b] = await Promise.all([cli(['admin', 'bootstrap', 'acme']), cli(['admin', 'bootstrap', 'acme'])]);
    // A failure shows what the process said.
    expect([a, b].map((r) => (r.code === 0 ? 0 : r.output))).toEqual([0, 0]);
    const [made, skipped] = KEY.test(a.output) ? [a, b] : [b, a];
    expect(made.output).toMatch(/^Created tenant acme \([0-9a-f-]{36}\) and an admin key [0-9a-f]{12} \(principal bootstrap\)\.$/m);
    expect(skipped.output).toContain('The database has 1 tenant already: nothing created.');
    expect(skipped.output).not.toMatch(/dsk_/);
    const key = KEY.exec(made.output)![1]!;
    // The printed key is a working admin key of that tenant: the gateway (which checks the schema at boot) lets it in.
    const port = await freePort();
    const gateway = startChildService(
      path.join(REPO_ROOT, 'apps/gateway/src/main.ts'),
      {
        DATABASE_URL: db.url,
        QUEUE_PREFIX: uniquePrefix('boot-gw'),
        // The test waits for its 'listening' line.
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        OTEL_SDK_DISABLED: 'true',
      },
      'gateway',
    );
    try {
      await gateway.waitForOutput(/gateway listening/);
      const me = await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ principal: { name: 'bootstrap', role: 'admin' }, canWrite: true, tenant: { name: 'acme' } });
    } finally {
      gateway.kill();
      await gateway.exited;
    }
    const prisma = new PrismaService({ url: db.url, poolMax: 1 });
    try {
      const identity = await new ApiKeyRepository(prisma).verify(key);
      expect(identity).toMatchObject({ role: 'admin' });
      expect(await prisma.tenant.findMany({ select: { name: true } })).toEqual([{ name: 'acme' }]);
    } finally {
      await prisma.$disconnect();
    }
    // The Job runs again with every release, under another name too: nothing new, no key.
    const again = await cli(['admin', 'bootstrap', 'other', '--key-name', 'x']);
    expect(again.code).toBe(0);
    expect(again.output).not.toMatch(/dsk_/);
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM api_keys')).toEqual([{ n: 1 }]);
    // A blank name (an unset variable in the Job's args) is a usage error, not a tenant called "".
    const blank = await cli(['admin', 'bootstrap', '  ']);
    expect(blank.code).toBe(2);
    expect(blank.output).toContain('The tenant name is required');
  }, 600_000);

  it('schema: current, then missing a migration (exit 1, named), then --wait returns once the migration lands', async () => {
    const current = await cli(['admin', 'schema']);
    expect(current.code).toBe(0);
    expect(current.output).toMatch(/^Schema current: all \d+ migrations of this build applied\.$/m);

    const [row] = await sql<Record<string, unknown>>(
      db.url,
      'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING *',
    );
    const behind = await cli(['admin', 'schema']);
    expect(behind.code).toBe(1);
    expect(behind.output).toContain(`dossier: The database schema is older than this build: 1 of its`);
    expect(behind.output).toContain(`(${String(row!['migration_name'])})`);

    // The init container: waits, then goes on when the migration Job has recorded the migration.
    const waiting = startChildService(CLI, { DATABASE_URL: db.url, LOG_LEVEL: 'error', OTEL_SDK_DISABLED: 'true' }, 'dossier', [
      'admin',
      'schema',
      '--wait',
      '120',
    ]);
    await waiting.waitForOutput(/Waiting for 1 migration\(s\) of this build not applied yet/);
    await sql(
      db.url,
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, $4, $5, $6)',
      [row!['id'], row!['checksum'], row!['migration_name'], row!['started_at'], row!['finished_at'], row!['applied_steps_count']],
    );
    expect((await waiting.exited).code).toBe(0);
    expect(waiting.output()).toMatch(/Schema current/);

    const bad = await cli(['admin', 'schema', '--wait', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('--wait must be a whole number ≥ 1, got "soon"');
  }, 600_000);
});

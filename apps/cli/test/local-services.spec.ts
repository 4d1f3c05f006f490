import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp, createTestDatabase, sql, uniquePrefix, waitFor, type TestDatabase } from '@dossier/testing';
import { CLI, cliRunner } from './cli-harness';

const REPO = path.resolve(__dirname, '../../..');
/** What a process that hosts workers logs at info (BullMqServer, ConductorLoop): the test's evidence that it started them. */
const STARTED = /workers started|conductor started/;
/** Logs at info, to stderr, where the test reads them. */
const LOGGED = { LOG_LEVEL: 'info', LOG_DESTINATION: 'stderr' };

/** A TCP server that accepts connections and never answers: a Redis or Postgres that hangs, not one that refuses. */
async function silentServer(): Promise<{ url: (scheme: string) => string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (scheme) => `${scheme}://127.0.0.1:${port}${scheme.startsWith('postgres') ? '/dossier' : ''}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Issue 28: commands that only read start no worker; Postgres or Redis not answering is a clear error in seconds. */
describe('the CLI and its local services', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let runId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
    // A finished run to show (the first command creates the local tenant).
    expect((await cli(['runs'], LOGGED)).output).toContain('No runs yet.');
    const run = await sql<{ id: string }>(
      db.url,
      `INSERT INTO research_runs (id, tenant_id, question, status, options, workflow_version, updated_at)
       SELECT gen_random_uuid(), id, 'Is anything started?', 'completed', '{}', 1, now() FROM tenants WHERE name = 'local' RETURNING id`,
    );
    runId = run[0]!.id;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('Redis or Postgres not answering: `dossier runs` fails within its connect timeout, naming the URL it tried and the fix', async () => {
    const silent = await silentServer();
    try {
      // The bound is the command's own: DOSSIER_CONNECT_TIMEOUT_MS. Without it, the engine's connection waits for Redis forever.
      const redis = await cli(['runs'], { ...LOGGED, REDIS_URL: silent.url('redis'), DOSSIER_CONNECT_TIMEOUT_MS: '1500' });
      expect(redis.code).toBe(1);
      expect(redis.output).toContain(`dossier: Redis is not answering at ${silent.url('redis')}`);
      expect(redis.output).toMatch(/set REDIS_URL to a running server/);
      expect(redis.output).not.toMatch(STARTED);

      const pg = await cli(['runs'], {
        DATABASE_URL: silent.url('postgresql').replace('//', '//postgres:s3cret-pw@'),
        DOSSIER_CONNECT_TIMEOUT_MS: '1500',
      });
      expect(pg.code).toBe(1);
      expect(pg.output).toMatch(/dossier: Postgres is not answering at postgresql:\/\/postgres@127\.0\.0\.1:\d+\/dossier \(.+\): start it/);
      expect(pg.output).toMatch(/set DATABASE_URL to a running server/);
      expect(pg.output).not.toContain('s3cret-pw');
    } finally {
      await silent.close();
    }
    // A database that does not exist, or was never migrated: named, with the command that fixes it.
    const missing = await cli(['runs'], { DATABASE_URL: db.url.replace(/\/[^/]+$/, '/dossier_no_such_db') });
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/has no such database .*npm run db:migrate/);
  });

  it('--help, runs, show and report start no worker and no conductor', async () => {
    for (const args of [['--help'], ['runs'], ['show', runId], ['report', runId]]) {
      const result = await cli(args, LOGGED);
      expect({ args, started: STARTED.exec(result.output)?.[0] ?? null }).toEqual({ args, started: null });
    }
    expect((await cli(['runs'], LOGGED)).output).toContain(runId);
  });

  it('dossier mcp starts its workers with the first run it starts, not before', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', path.join(REPO, 'tools/ts-register.cjs'), CLI, 'mcp'],
      cwd: REPO,
      env: {
        ...(process.env as Record<string, string>),
        ...LOGGED,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: uniquePrefix('mcp-lazy'),
        VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-vectors-')),
        OTEL_SDK_DISABLED: 'true',
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client: Client = await connectMcp(transport);
    try {
      expect((await callTool(client, 'list_collections', {})).isError).toBe(false);
      expect((await callTool(client, 'get_run', { runId })).isError).toBe(false);
      expect(stderr).not.toMatch(STARTED);
      // The positive control: the same process starts them when it starts a run.
      const started = await callTool(client, 'start_research', {
        question: 'What is Lake Varen?',
        options: { collection: 'none' },
        waitSeconds: 0,
      });
      expect(started.isError).toBe(false);
      await waitFor('the workers and the conductor of dossier mcp', async () =>
        /workers started/.test(stderr) && /conductor started/.test(stderr) ? true : undefined,
      );
    } finally {
      await client.close();
    }
  });
});

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { ConfigError } from '@dossier/errors';
import { environment } from '@dossier/config';

const REPO_ROOT = path.resolve(__dirname, '../../../..');

function run(what: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4_000)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new ConfigError(`${what} failed (exit ${code ?? 'signal'}): ${stderr.trim() || 'no message'}`)),
    );
  });
}

function redisAnswers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const socket = connect(Number(u.port) || 6379, u.hostname, () => socket.write('PING\r\n'));
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_500, () => done(false));
    socket.once('data', (d) => done(String(d).startsWith('+PONG') || String(d).startsWith('-NOAUTH')));
    socket.once('error', () => done(false));
  });
}

/** Postgres answers and every migration folder is applied: nothing for `prisma migrate deploy` to do. */
async function databaseCurrent(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_500 });
  try {
    await client.connect();
    const applied = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Set(applied.rows.map((r) => r.migration_name));
    const folders = readdirSync(path.join(REPO_ROOT, 'prisma/migrations'), { withFileTypes: true }).filter((d) => d.isDirectory());
    return folders.every((d) => done.has(d.name));
  } catch {
    // Not answering, no such database, or never migrated: ensure-services.sh starts and migrates it.
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * What `npm run demo` does before it starts (tools/ensure-services.sh): Redis and Postgres answering at
 * REDIS_URL / DATABASE_URL, found or started (Docker where an engine runs, else the machine's own servers), and
 * the migrations applied; then the web app built if its sources changed (tools/build-web.mjs, a hash when not).
 * When both answer and the database has every migration, the script (and Prisma's CLI, ~10 s) is skipped.
 */
export async function prepareMachine(env: { DATABASE_URL: string; REDIS_URL: string }): Promise<void> {
  const childEnv = { ...environment(), DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL };
  const [redis, database] = await Promise.all([redisAnswers(env.REDIS_URL), databaseCurrent(env.DATABASE_URL)]);
  if (!redis || !database) {
    await run(
      'Starting Redis and Postgres (tools/ensure-services.sh)',
      'bash',
      [path.join(REPO_ROOT, 'tools/ensure-services.sh')],
      childEnv,
    );
  }
  await run(
    'Building the web app (tools/build-web.mjs)',
    process.execPath,
    [path.join(REPO_ROOT, 'tools/build-web.mjs'), '--quiet'],
    childEnv,
  );
}

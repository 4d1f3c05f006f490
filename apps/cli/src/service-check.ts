import { loadConfig } from '@dossier/config';
import { DependencyUnavailableError } from '@dossier/errors';
import { CliEnv } from './cli-env';

export interface ServiceUrls {
  DATABASE_URL: string;
  REDIS_URL: string;
  DOSSIER_CONNECT_TIMEOUT_MS: number;
}

/** A URL as it may be shown: no password. */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '';
    return url.toString().replace(/:@/, '@');
  } catch {
    return '(an unparsable URL)';
  }
}

function reason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * Postgres answers, the database exists and is migrated; otherwise a DependencyUnavailableError that names the URL
 * it tried and what to do. Bounded by `timeoutMs`: a server that does not answer is reported, not waited for.
 */
async function checkPostgres(rawUrl: string, timeoutMs: number): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by the commands that connect (issue 28: --help)
  const { Client } = require('pg') as typeof import('pg');
  const url = shownUrl(rawUrl);
  const client = new Client({ connectionString: rawUrl, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const rows = await client.query<{ runs: string | null }>("SELECT to_regclass('research_runs')::text AS runs");
    if (!rows.rows[0]?.runs) {
      throw new DependencyUnavailableError(
        `The database at ${url} has no Dossier tables: migrate it with \`npm run db:migrate\` (DATABASE_URL set to this URL)`,
      );
    }
  } catch (err) {
    if (err instanceof DependencyUnavailableError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === '3D000') {
      throw new DependencyUnavailableError(
        `Postgres at ${url} has no such database (${reason(err)}): create and migrate it with \`npm run db:migrate\` ` +
          '(DATABASE_URL set to this URL), or set DATABASE_URL to an existing one',
      );
    }
    if (code === '28P01' || code === '28000') {
      throw new DependencyUnavailableError(
        `Postgres at ${url} refused the login (${reason(err)}): check the user and password in DATABASE_URL`,
      );
    }
    throw new DependencyUnavailableError(
      `Postgres is not answering at ${url} (${reason(err)}): start it (\`npm run demo\` starts one, or \`docker compose up -d postgres\`), ` +
        'or set DATABASE_URL to a running server',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Redis answers PING within `timeoutMs`; otherwise a DependencyUnavailableError naming the URL and the fix. */
async function checkRedis(rawUrl: string, timeoutMs: number): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by the commands that connect (issue 28: --help)
  const { Redis } = require('ioredis') as typeof import('ioredis');
  // One try, no reconnects, no offline queue: the engine's own connections wait for Redis forever (right for a
  // worker during an outage, wrong for a command someone is waiting on).
  const redis = new Redis(rawUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectionName: 'dossier-cli-check',
  });
  // The socket's own error (ECONNREFUSED, ETIMEDOUT) says more than the rejection ("Connection is closed").
  let socketError: unknown;
  redis.on('error', (err) => (socketError ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new DependencyUnavailableError(
      `Redis is not answering at ${shownUrl(rawUrl)} (${reason(socketError ?? err)}): start it (\`npm run demo\` starts one, or \`redis-server\`, ` +
        'or `docker compose up -d redis`), or set REDIS_URL to a running server',
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Local mode needs Postgres and Redis. Both are asked at once before the engine boots, each bounded by
 * DOSSIER_CONNECT_TIMEOUT_MS: unreachable, the command ends in seconds with the URL it tried and the fix (issue 28),
 * instead of the engine's connections waiting for minutes or Prisma's own message without a hint.
 */
export async function checkServices(env: ServiceUrls): Promise<void> {
  const results = await Promise.allSettled([
    checkPostgres(env.DATABASE_URL, env.DOSSIER_CONNECT_TIMEOUT_MS),
    checkRedis(env.REDIS_URL, env.DOSSIER_CONNECT_TIMEOUT_MS),
  ]);
  const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failed.length === 1) throw failed[0]!;
  if (failed.length > 1) throw new DependencyUnavailableError(failed.map((e) => e.message).join('; and '));
}

/** The local transport's first act (build-program.ts), before the engine is loaded: fails in seconds, not minutes. */
export function checkLocalServices(): Promise<void> {
  return checkServices(loadConfig(CliEnv));
}

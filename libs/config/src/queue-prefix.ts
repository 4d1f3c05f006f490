import { createHash } from 'node:crypto';

/**
 * The queue prefix when QUEUE_PREFIX is not set: one per database, so two databases on one Redis never share jobs
 * (a worker of one would take the other's steps, docs/decisions/0077). Derived from where the database is — host,
 * port and name, never the user or password — as `dossier-<name>-<8 hex of a hash>`: readable in `redis-cli keys`,
 * and the same in every process of a deployment, which all read one DATABASE_URL.
 */
export function defaultQueuePrefix(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const host = url.hostname.toLowerCase() || 'localhost';
  const port = url.port || '5432';
  // Postgres connects to the database named like the user when the URL names none.
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  const hash = createHash('sha256').update(`${host}:${port}/${name}`).digest('hex').slice(0, 8);
  const readable = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 32);
  return `dossier-${readable}-${hash}`;
}

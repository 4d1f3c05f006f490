import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

const ADMIN_URL = process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test file, cloned from the migrated template that jest's global setup made.
 * Real Postgres, every migration applied, nothing shared with other files.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  // The jest process's pid in the name lets a later run's global setup drop only databases whose owner died.
  const name = `dossier_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = process.env['TEST_TEMPLATE_DATABASE'];
  if (!template) throw new Error('TEST_TEMPLATE_DATABASE is not set: run tests through jest (its global setup builds the template)');
  // CREATE DATABASE ... TEMPLATE fails if another session is copying the same template; retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      break;
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  return databaseNamed(name);
}

/**
 * A fresh, empty database (no migrations): for a bench or test that brings its own tables. Named as the template's
 * clones are, so a later run's global setup drops it if its process dies before it does.
 */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `dossier_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  return databaseNamed(name);
}

function databaseNamed(name: string): TestDatabase {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs SQL against a test database (for test-only tables and for tampering in fault tests). */
export async function sql<T extends object = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

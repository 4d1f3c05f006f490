import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { DependencyUnavailableError, describeError, isDependencyUnavailable, SchemaOutdatedError } from '@dossier/errors';

/** prisma/migrations of this build (the repository, and the image, which holds the whole tree at /app). */
export const MIGRATIONS_DIR = path.resolve(__dirname, '../../../../prisma/migrations');

/** The migrations this build ships, in the order Prisma applies them (their folder names sort by timestamp). */
export function shippedMigrations(dir: string = MIGRATIONS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
}

export interface SchemaStatus {
  /** Shipped by this build. */
  shipped: string[];
  /** Recorded as applied (finished, not rolled back) in `_prisma_migrations`. */
  applied: string[];
  /** Shipped but not applied: this build must not run yet. */
  missing: string[];
  /** Applied but not shipped: a newer build migrated the database (fine: migrations only add, docs/operations.md). */
  unknown: string[];
}

const UNDEFINED_TABLE = '42P01';

/** Compares the migrations this build ships with those the database at `databaseUrl` has applied. */
export async function readSchemaStatus(databaseUrl: string, dir: string = MIGRATIONS_DIR): Promise<SchemaStatus> {
  const shipped = shippedMigrations(dir);
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  let applied: string[];
  try {
    // A connection that cannot be made says nothing about the schema: classified here, where it is known.
    await client.connect().catch((err: unknown) => {
      throw new DependencyUnavailableError(`Postgres cannot be reached: ${describeError(err).message}`, { cause: err });
    });
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    applied = rows.map((r) => r.migration_name).sort();
  } catch (err) {
    // No migration table: a database no migration has touched yet.
    if ((err as { code?: unknown }).code !== UNDEFINED_TABLE) throw err;
    applied = [];
  } finally {
    await client.end().catch(() => undefined);
  }
  const done = new Set(applied);
  const known = new Set(shipped);
  return { shipped, applied, missing: shipped.filter((m) => !done.has(m)), unknown: applied.filter((m) => !known.has(m)) };
}

/** One sentence an operator can act on: what is missing and how to apply it. */
export function describeOutdated(status: SchemaStatus): string {
  const { missing, shipped } = status;
  const names = missing.length <= 3 ? missing.join(', ') : `${missing.slice(0, 2).join(', ')}, …, ${missing.at(-1)}`;
  return (
    `The database schema is older than this build: ${missing.length} of its ${shipped.length} migrations not applied (${names}). ` +
    'Apply them first: bash tools/prisma.sh migrate deploy (Kubernetes: the dossier-migrate Job; docker compose: the migrate service).'
  );
}

/** Throws SchemaOutdatedError when the database lacks a migration this build ships. */
export async function assertSchemaCurrent(databaseUrl: string, dir: string = MIGRATIONS_DIR): Promise<SchemaStatus> {
  const status = await readSchemaStatus(databaseUrl, dir);
  if (status.missing.length > 0) {
    throw new SchemaOutdatedError(describeOutdated(status), { details: { missing: status.missing } });
  }
  return status;
}

/**
 * The check a service makes before it takes work: a database without this build's migrations stops the boot
 * with SchemaOutdatedError. A database that cannot be reached is not a verdict on its schema: the service boots
 * as before (its steps retry until Postgres is back) and says the check was skipped.
 */
export async function checkSchemaAtBoot(
  databaseUrl: string,
  log: { warn(obj: object, msg: string): void },
  dir: string = MIGRATIONS_DIR,
): Promise<SchemaStatus | undefined> {
  try {
    return await assertSchemaCurrent(databaseUrl, dir);
  } catch (err) {
    if (!isDependencyUnavailable(err)) throw err;
    log.warn({ err: describeError(err) }, 'schema check skipped: the database cannot be reached now');
    return undefined;
  }
}

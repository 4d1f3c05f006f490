import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SchemaOutdatedError } from '@dossier/errors';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { assertSchemaCurrent, checkSchemaAtBoot, readSchemaStatus, shippedMigrations } from '../src';

/** The boot check that keeps a new image from running against the schema of the previous release. */
describe('schema version check (real Postgres)', () => {
  let db: TestDatabase;
  const shipped = shippedMigrations();

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a database migrated by this build is current', async () => {
    expect(shipped.length).toBeGreaterThan(10);
    expect(shipped).toEqual([...shipped].sort());
    const status = await assertSchemaCurrent(db.url);
    expect(status).toEqual({ shipped, applied: shipped, missing: [], unknown: [] });
  });

  it('a migration the database lacks (or one that failed half-way) is named; one only a newer build knows is fine', async () => {
    const [newest, previous] = [shipped.at(-1)!, shipped.at(-2)!];
    await sql(db.url, 'UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1', [previous]);
    await sql(db.url, 'DELETE FROM _prisma_migrations WHERE migration_name = $1', [newest]);
    await sql(
      db.url,
      "INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('x1', 'c', '29990101000000_from_the_future', now(), now(), 1)",
    );
    const status = await readSchemaStatus(db.url);
    expect(status.missing).toEqual([previous, newest]);
    expect(status.unknown).toEqual(['29990101000000_from_the_future']);
    const err = await assertSchemaCurrent(db.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaOutdatedError);
    expect((err as Error).message).toBe(
      `The database schema is older than this build: 2 of its ${shipped.length} migrations not applied (${previous}, ${newest}). ` +
        'Apply them first: bash tools/prisma.sh migrate deploy (Kubernetes: the dossier-migrate Job; docker compose: the migrate service).',
    );
    // A booting service stops on it rather than logging and going on.
    await expect(checkSchemaAtBoot(db.url, { warn: () => undefined })).rejects.toBeInstanceOf(SchemaOutdatedError);
  });

  it('a database no migration has touched misses them all; the build decides what it ships', async () => {
    await sql(db.url, 'DROP TABLE _prisma_migrations');
    const status = await readSchemaStatus(db.url);
    expect(status.applied).toEqual([]);
    expect(status.missing).toEqual(shipped);
    // Another build's folder: only directories holding a migration.sql count.
    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-migrations-'));
    for (const name of ['20260101000000_b', '20250101000000_a']) {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, 'migration.sql'), 'SELECT 1;');
    }
    mkdirSync(path.join(dir, 'not_a_migration'));
    writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"');
    expect(shippedMigrations(dir)).toEqual(['20250101000000_a', '20260101000000_b']);
    expect((await readSchemaStatus(db.url, dir)).missing).toEqual(['20250101000000_a', '20260101000000_b']);
  });

  it('an unreachable database is no verdict at boot: the check is skipped, and says so', async () => {
    const warnings: string[] = [];
    const url = 'postgresql://postgres@127.0.0.1:1/dossier';
    expect(await checkSchemaAtBoot(url, { warn: (_obj, msg) => warnings.push(msg) })).toBeUndefined();
    expect(warnings).toEqual(['schema check skipped: the database cannot be reached now']);
  });
});

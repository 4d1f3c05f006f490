import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

// `bash tools/prisma.sh migrate …` as `npm run db:migrate`, the image's migrate jobs and the tests' template run it,
// on a database of its own, with no engine named in the environment and every binary download refused.
const ROOT = path.resolve(__dirname, '../../..');
const ADMIN_URL = process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const MIGRATIONS = path.join(ROOT, 'prisma/migrations');
const folders = readdirSync(MIGRATIONS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

interface Result {
  status: number | null;
  output: string;
}

function prisma(databaseUrl: string, ...args: string[]): Promise<Result> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    // Where Prisma would fetch a schema-engine binary from: a closed port, so any download attempt fails.
    PRISMA_ENGINES_MIRROR: 'http://127.0.0.1:9',
  };
  delete env['PRISMA_SCHEMA_ENGINE_BINARY'];
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(ROOT, 'tools/prisma.sh'), ...args], { cwd: tmpdir(), env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

async function query<T extends object>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const created: string[] = [];
function newDatabase(): { name: string; url: string } {
  // dossier_t_<pid>_…: the tests' global setup drops it if this process dies before afterAll.
  const name = `dossier_t_${process.pid}_mig_${randomBytes(4).toString('hex')}`;
  created.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}
const rowsOf = (url: string) =>
  query<MigrationRow>(
    url,
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name',
  );

afterAll(async () => {
  for (const name of created) await query(ADMIN_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe('migrations with the schema engine in tools/prisma-offline', () => {
  it('two deploys at once apply each migration once, with Prisma’s bookkeeping; status then agrees', async () => {
    const db = newDatabase();
    await query(ADMIN_URL, `CREATE DATABASE "${db.name}"`);
    // Prisma's advisory lock serializes them: it is taken on the engine's one session, where the migrations then run.
    const both = await Promise.all([prisma(db.url, 'migrate', 'deploy'), prisma(db.url, 'migrate', 'deploy')]);
    expect(both.map((r) => r.status)).toEqual([0, 0]);
    expect(both.map((r) => r.output).join('\n')).toContain(`${folders.length} migrations found`);

    const rows = await rowsOf(db.url);
    expect(rows.map((r) => r.migration_name)).toEqual(folders);
    for (const r of rows) {
      // Prisma's checksum: SHA-256 of the migration file's bytes. Any other value makes `migrate status` report an edit.
      const sha = createHash('sha256')
        .update(readFileSync(path.join(MIGRATIONS, r.migration_name, 'migration.sql')))
        .digest('hex');
      expect({ name: r.migration_name, checksum: r.checksum, steps: r.applied_steps_count, rolledBack: r.rolled_back_at }).toEqual({
        name: r.migration_name,
        checksum: sha,
        steps: 1,
        rolledBack: null,
      });
      expect(r.finished_at).toBeInstanceOf(Date);
    }

    const status = await prisma(db.url, 'migrate', 'status');
    expect(status).toMatchObject({ status: 0 });
    expect(status.output).toContain('Database schema is up to date');
  });

  it('creates the database; runs each script whole; a failing migration leaves nothing behind and is recorded as failed', async () => {
    const db = newDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-mig-'));
    try {
      cpSync(MIGRATIONS, path.join(dir, 'migrations'), { recursive: true });
      cpSync(path.join(ROOT, 'prisma/schema.prisma'), path.join(dir, 'schema.prisma'));
      const extra = (name: string, text: string) => {
        mkdirSync(path.join(dir, 'migrations', name));
        writeFileSync(path.join(dir, 'migrations', name, 'migration.sql'), text);
      };
      // A $$ body and a string holding ";": adapter-pg alone would split this script on every ";".
      extra('29990101000000_function', `CREATE FUNCTION "probe_fn"() RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN 'a;b'; END $$;\n`);
      extra('29990102000000_broken', 'CREATE TABLE "probe_partial" ("id" INTEGER);\nSELECT 1 / 0;\n');
      const config = path.join(dir, 'prisma.config.mjs');
      const settings = {
        schema: path.join(dir, 'schema.prisma'),
        migrations: { path: path.join(dir, 'migrations') },
        datasource: { url: db.url },
      };
      writeFileSync(config, `export default ${JSON.stringify(settings)};\n`);

      const first = await prisma(db.url, 'migrate', 'deploy', '--config', config);
      expect(first.status).not.toBe(0);
      expect(first.output).toContain('29990102000000_broken');
      expect((await query<{ v: string }>(db.url, 'SELECT "probe_fn"() AS v'))[0]!.v).toBe('a;b');
      const probe = await query<{ n: string }>(db.url, "SELECT count(*)::text AS n FROM pg_tables WHERE tablename = 'probe_partial'");
      expect(probe[0]!.n).toBe('0');
      const rows = await rowsOf(db.url);
      expect(rows.map((r) => [r.migration_name, r.finished_at !== null])).toEqual([
        ...folders.map((f) => [f, true]),
        ['29990101000000_function', true],
        ['29990102000000_broken', false],
      ]);
      // Unfinished and not rolled back: the state in which Prisma refuses every later deploy (P3009) until
      // `prisma migrate resolve`.
      expect(rows.at(-1)).toMatchObject({ finished_at: null, rolled_back_at: null, logs: expect.stringMatching(/division by zero/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

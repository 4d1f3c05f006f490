// Prepares a template database with every migration applied; each test file clones it
// (CREATE DATABASE ... TEMPLATE), which takes a fraction of a second and isolates files from each other.
//
// Several jest runs may share one Postgres (two checkouts on one machine, a developer running one project
// while the full suite runs): the template is named by a hash of the migrations, so runs on the same schema
// share it and a run on another schema never rebuilds it under someone else's feet; test databases carry
// the pid of the jest process that made them, and only those of dead processes are dropped here.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(__dirname, '../..');

function migrationsHash() {
  const dir = path.join(root, 'prisma/migrations');
  const hash = crypto.createHash('sha256');
  for (const entry of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, entry, 'migration.sql');
    if (fs.existsSync(file)) hash.update(entry).update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

const TEMPLATE_IN_USE = 'dossier-test-template-in-use';

/** True when no live run holds the template (an exclusive try-lock succeeds only if none holds it shared). */
async function unused(admin, name) {
  const { rows } = await admin.query('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS free', [TEMPLATE_IN_USE, name]);
  if (!rows[0].free) return false;
  await admin.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [TEMPLATE_IN_USE, name]);
  return true;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

module.exports = async function globalSetup() {
  const template = `dossier_tpl_${migrationsHash()}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    // One builder at a time; the others wait here and then find the template ready.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', ['dossier-test-template']);
    const dbs = (await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'dossier_t%' ORDER BY oid DESC")).rows.map(
      (r) => r.datname,
    );
    // Templates of other schemas may belong to a concurrent run on another branch: keep the newest few, and
    // never one a live run is using (it holds a shared lock on it until it ends; see below). Dropping one in
    // use failed every test file of that run that had not cloned it yet ("template database … does not exist").
    const otherTemplates = dbs.filter((name) => name.startsWith('dossier_tpl_') && !name.endsWith('_building') && name !== template);
    const keptTemplates = new Set(otherTemplates.slice(0, 4));
    for (const name of dbs) {
      const owner = /^dossier_t_(\d+)_/.exec(name);
      const legacy = /^dossier_t_[0-9a-f]{12}$/.test(name) || name === 'dossier_test_template';
      const staleTemplate = otherTemplates.includes(name) && !keptTemplates.has(name) && (await unused(admin, name));
      if ((owner && !alive(Number(owner[1]))) || legacy || staleTemplate) {
        // Without FORCE: a database someone is still using stays.
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined);
      }
    }
    const ready = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (ready.rowCount === 0) {
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const url = new URL(ADMIN_URL);
      url.pathname = `/${building}`;
      execFileSync('bash', [path.join(root, 'tools/prisma.sh'), 'migrate', 'deploy'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url.toString() },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      // Renamed only once complete, so a template that exists is always fully migrated.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    }
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', ['dossier-test-template']);
  } finally {
    await admin.end();
  }
  // This run uses the template until it ends: a shared lock on its name, held by a connection that
  // global-teardown.cjs closes (or the process's exit does), tells other runs' clean-up to leave it alone.
  const user = new Client({ connectionString: ADMIN_URL });
  await user.connect();
  await user.query('SELECT pg_advisory_lock_shared(hashtext($1), hashtext($2))', [TEMPLATE_IN_USE, template]);
  user.connection.stream.unref();
  // Over a long run this idle connection can be cut (a restarted or busy server, an operator): an 'error' event
  // with no listener would crash jest itself, so losing the lock early is accepted (it only protects clean-up).
  user.on('error', () => undefined);
  globalThis.__dossierTemplateUser = user;
  process.env.TEST_TEMPLATE_DATABASE = template;
};

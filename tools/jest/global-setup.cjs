// Prepares a template database with every migration applied; each test file clones it
// (CREATE DATABASE ... TEMPLATE), which takes a fraction of a second and isolates files from each other.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const TEMPLATE = 'dossier_test_template';

module.exports = async function globalSetup() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const stale = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'dossier_t_%'");
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${TEMPLATE}`;
  const root = path.resolve(__dirname, '../..');
  execFileSync('bash', [path.join(root, 'tools/prisma.sh'), 'migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.TEST_TEMPLATE_DATABASE = TEMPLATE;
};

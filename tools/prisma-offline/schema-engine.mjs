#!/usr/bin/env node
// Stand-in for Prisma's native `schema-engine` binary, so that `prisma generate` and every `prisma migrate`
// command work on a machine that reaches only the npm registry (the CLI downloads the binary otherwise).
// tools/env.sh points PRISMA_SCHEMA_ENGINE_BINARY here unless it names another engine; the image sets it too.
// Speaks the binary's JSON-RPC-over-stdio protocol (plus its `cli` subcommands) and forwards every call to
// Prisma's own WebAssembly build of the engine (@prisma/schema-engine-wasm) over @prisma/adapter-pg.
// Origin and licence: README.md beside this file; why: docs/decisions/0015-self-sufficient-install.md.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { migrationAdapter, withDatabase } from './pg-migrate-adapter.mjs';

// The packages are the repository's own dependencies, whatever folder `prisma` runs from.
const repoRequire = createRequire(new URL('../../package.json', import.meta.url));
const load = (spec) => import(pathToFileURL(repoRequire.resolve(spec)).href);
const pg = (await load('pg')).default;
const bg = await load('@prisma/schema-engine-wasm/schema_engine_bg');

// The wasm engine arms 10 s / 60 s timers and never clears them: they must not hold the process open.
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...a) => {
  const t = realSetTimeout(fn, ms, ...a);
  if (ms >= 10000) t.unref();
  return t;
};

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const datamodels = argv.flatMap((a, i) => (a === '--datamodels' ? [argv[i + 1]] : []));
const datasource = opt('--datasource') ? JSON.parse(opt('--datasource')) : {};
const logErr = (code, message) =>
  process.stderr.write(JSON.stringify({ level: 'ERROR', target: 'schema_engine::logger', fields: { error_code: code, message } }) + '\n');

if (argv.includes('--version')) {
  console.log(`schema-engine-cli ${bg.version?.() ?? 'wasm'} (wasm stand-in)`);
  process.exit(0);
}

// `schema-engine --datasource {...} cli <can-connect-to-database|create-database|drop-database>`
if (argv.includes('cli')) {
  const sub = argv[argv.indexOf('cli') + 1];
  // The CLI drops the first stderr line before parsing the JSON log lines, as the binary logs a banner first.
  process.stderr.write(
    JSON.stringify({
      level: 'INFO',
      target: 'schema_engine::logger',
      fields: { message: `Starting schema engine CLI (wasm stand-in): ${sub}` },
    }) + '\n',
  );
  const url = new URL(datasource.url);
  const dbName = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  const quoted = `"${dbName.replace(/"/g, '""')}"`;
  const connect = async (database) => {
    // The connection string keeps the URL's other settings (sslmode, options), as the app's own connections do.
    const c = new pg.Client({ connectionString: withDatabase(datasource.url, database) });
    await c.connect();
    return c;
  };
  let client;
  try {
    if (sub === 'can-connect-to-database') client = await connect(dbName);
    else if (sub === 'create-database') await (client = await connect('postgres')).query(`CREATE DATABASE ${quoted}`);
    else if (sub === 'drop-database') await (client = await connect('postgres')).query(`DROP DATABASE IF EXISTS ${quoted}`);
    else throw Object.assign(new Error(`unsupported cli subcommand ${sub}`), { code: 'unsupported' });
    await client.end();
    process.exit(0);
  } catch (e) {
    logErr(e.code === '3D000' ? 'P1003' : e.code === 'ECONNREFUSED' ? 'P1001' : 'P1000', e.message);
    process.exit(1);
  }
}

// JSON-RPC server mode.
let lastPanic = null; // the wasm glue reports Rust panic messages here
globalThis.PRISMA_WASM_PANIC_REGISTRY = {
  set_message: (m) => {
    lastPanic = m;
    process.stderr.write(`[wasm panic] ${m}\n`);
  },
};
const wasmPath = path.join(path.dirname(repoRequire.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
const inst = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), { './schema_engine_bg.js': bg });
bg.__wbg_set_wasm(inst.exports);
inst.exports.__wbindgen_start();

const log = (line) => process.stderr.write(String(line).trimEnd() + '\n'); // JSON tracing lines, like the binary
let enginePromise;
const engine = () =>
  (enginePromise ??= bg.SchemaEngine.new(
    // No --datamodels (e.g. `migrate diff`): pass undefined; an empty list panics in psl.
    { datamodels: datamodels.length ? datamodels.map((p) => [p, fs.readFileSync(p, 'utf8')]) : undefined },
    log,
    migrationAdapter(datasource.url, datasource.shadowDatabaseUrl),
  ));

const methodMap = { getDatabaseVersion: 'version' };
// The wasm engine's createMigration/evaluateDataLoss get no shadow-DB factory: they only work off the
// schema cached by a devDiagnostic run while the DB already had every migration applied
// ("PostgreSQL shadow DB must be provided through an external factory" otherwise). `migrate dev`
// applies pending migrations after its devDiagnostic, so devDiagnostic runs again before them.
let armed = false;

async function call(method, params) {
  const e = await engine();
  const m = methodMap[method] ?? method;
  if (typeof e[m] !== 'function') throw new Error(`Method ${method} is not supported by the wasm schema engine`);
  if ((m === 'evaluateDataLoss' || m === 'createMigration') && !armed && params?.migrationsList) {
    // Best effort: if it fails, the call itself reports the real error.
    await e.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters }).catch(() => undefined);
  }
  let res = await e[m](params ?? undefined);
  if (m === 'diff' && res && typeof res.stdout === 'string') {
    // The native engine prints diff output through a JSON-RPC `print` request to the CLI.
    const { stdout, ...rest } = res;
    if (stdout)
      process.stdout.write(
        JSON.stringify({ jsonrpc: '2.0', id: `print-${Date.now()}`, method: 'print', params: { content: stdout.replace(/\n$/, '') } }) +
          '\n',
      );
    res = rest;
  }
  if (m === 'devDiagnostic' || m === 'evaluateDataLoss' || m === 'createMigration') armed = true;
  if (m === 'applyMigrations' || m === 'reset' || m === 'schemaPush' || m === 'dbExecute') armed = false;
  return res;
}

// One request at a time, in order, as the binary serves them.
const queue = [];
let busy = false;
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const req = queue.shift();
    let reply;
    try {
      const result = await call(req.method, req.params);
      reply = { jsonrpc: '2.0', id: req.id, result: result === undefined ? null : result };
    } catch (err) {
      const message = err?.message ?? String(err);
      const known = err?.code && /^P\d{4}$/.test(err.code) ? { error_code: err.code, meta: err.meta ?? {} } : {};
      reply = {
        jsonrpc: '2.0',
        id: req.id,
        error: {
          code: 4466,
          message: 'An error happened. Check the data field for details.',
          data: { is_panic: lastPanic !== null, message, ...known },
        },
      };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
  busy = false;
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (!msg.method) return; // the CLI's acknowledgement of a `print` request
  queue.push(msg);
  void pump();
});
rl.on('close', async () => {
  while (busy || queue.length) await new Promise((r) => realSetTimeout(r, 5));
  if (enginePromise) (await enginePromise.catch(() => null))?.free();
  process.exit(0);
});

// A @prisma/adapter-pg factory fixed up for the wasm schema engine (schema-engine.mjs).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const repoRequire = createRequire(new URL('../../package.json', import.meta.url));
const load = (spec) => import(pathToFileURL(repoRequire.resolve(spec)).href);
const { PrismaPg } = await load('@prisma/adapter-pg');
const { bindMigrationAwareSqlAdapterFactory } = await load('@prisma/driver-adapter-utils');

/** The same URL naming another database (pg lets a connection string override a separate `database` field). */
export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

function pgConfig(url) {
  return {
    // A connection string, as libs/db connects: sslmode and the URL's other settings apply to migrations too.
    connectionString: url,
    // One session, as the native engine uses: Prisma's advisory lock (pg_advisory_lock(72707369)) and the
    // statements it guards then run on the same connection, so concurrent `migrate deploy`s serialize.
    max: 1,
    allowExitOnIdle: true, // nothing closes the pool when the engine is freed
  };
}

function patch(adapter) {
  const adapterProto = Object.getPrototypeOf(adapter);
  const queryableProto = Object.getPrototypeOf(adapterProto);
  if (!queryableProto.__offlinePatched) {
    // adapter-pg rejects the catalog types "char" (oid 18) and name (19) that introspection reads: report them as text (25).
    const performIO = queryableProto.performIO;
    queryableProto.performIO = async function (...args) {
      const res = await performIO.apply(this, args);
      for (const f of res.fields ?? []) if (f.dataTypeID === 18 || f.dataTypeID === 19) f.dataTypeID = 25;
      return res;
    };
    // adapter-pg splits scripts on every ";" (breaking $$ bodies and string literals). Sent whole, a migration
    // runs as one simple-protocol query, which Postgres executes as one implicit transaction: a failing
    // migration leaves nothing behind, as with the native engine.
    adapterProto.executeScript = async function (script) {
      try {
        await this.client.query(script);
      } catch (e) {
        this.onError(e);
      }
    };
    queryableProto.__offlinePatched = true;
  }
  return adapter;
}

export function migrationAdapter(url, shadowUrl) {
  const cfg = pgConfig(url);
  const factory = new PrismaPg(cfg);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => {
    if (shadowUrl) return patch(await new PrismaPg(pgConfig(shadowUrl)).connect()); // the engine resets it itself
    // adapter-pg's own version ignores the database name (the connection string wins): create, use and drop
    // a temporary database explicitly.
    const main = await connect();
    const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = patch(await new PrismaPg(pgConfig(withDatabase(url, name))).connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
      await main.dispose();
    };
    return shadow;
  };
  return bindMigrationAwareSqlAdapterFactory(factory);
}

// A Redis and a Postgres of jest shard 2's own (tools/test.sh; docs/decisions/0006, "two jest shards"), on spare
// ports in a temporary folder, so that nothing one shard does to its servers — a Redis FLUSHALL, a hundred open
// connections — reaches the other. Writes the shell variables that point jest at them to the file named by its
// argument, then holds both servers until SIGTERM, when it stops them and removes the folder.
//
//   node -r ./tools/ts-register.cjs tools/jest/own-services.ts ENV_FILE
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OwnPostgres } from '../soak/own-postgres';
import { OwnRedis } from '../soak/own-redis';
import { sparePort } from '../soak/spare-port';

async function main(envFile: string | undefined): Promise<void> {
  if (!envFile) throw new Error('usage: own-services.ts ENV_FILE');
  const root = mkdtempSync(path.join(tmpdir(), 'dossier-shard-'));
  const taken = new Set<number>();
  const postgres = new OwnPostgres(path.join(root, 'pg'), await sparePort(taken));
  const redis = new OwnRedis(path.join(root, 'redis'), await sparePort(taken));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.allSettled([redis.stop(), postgres.stop('immediate')]);
      rmSync(root, { recursive: true, force: true });
    })());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
  try {
    await postgres.init();
    await postgres.start();
    await redis.start();
  } catch (err) {
    await stop();
    throw err;
  }
  const lines = [
    `export REDIS_URL=${redis.url}`,
    `export TEST_ADMIN_DATABASE_URL=${postgres.adminUrl}`,
    `export DATABASE_URL=${postgres.adminUrl}`,
  ];
  writeFileSync(envFile, `${lines.join('\n')}\n`);
  // Held until a signal: a timer keeps the event loop (and so the servers' owner) alive.
  setInterval(() => undefined, 60_000);
}

main(process.argv[2]).catch((err: unknown) => {
  console.error(`own-services: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

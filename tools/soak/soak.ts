import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ApiKeyRepository, PrismaService, TenantRepository, type Prisma } from '@dossier/db';
import type { FakeOpenAIServer } from '@dossier/testing';
import { sql } from '@dossier/testing';
import { sleep } from './abortable-sleep';
import { ApiClient } from './api-client';
import { Chaos } from './chaos';
import { checkAudit } from './check-audit';
import { checkModelCalls } from './check-model-calls';
import { checkOutputs } from './check-outputs';
import { checkRuns } from './check-runs';
import { checkSse } from './check-sse';
import { Cleanup } from './cleanup';
import { Follower, type FollowedRun } from './follower';
import { startModelServer } from './model-server';
import { OwnPostgres } from './own-postgres';
import { OwnRedis } from './own-redis';
import { Random } from './random';
import type { SoakConfig } from './soak-config';
import { chaosSummary, problemsOf, type SoakSummary } from './soak-summary';
import { SoakSystem } from './soak-system';
import { sparePort } from './spare-port';
import { Submitter } from './submitter';
import { uploadCorpus } from './upload-corpus';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(__dirname, '../..');
const TERMINAL = ['completed', 'failed', 'cancelled'];
/** "Every few seconds": the mean pause between kills when the time budget allows it. */
const KILL_EVERY_MS = 5_000;

/** Progress lines go to stderr; the one JSON summary is the caller's to print. */
export type Progress = (line: string) => void;

/**
 * The chaos soak (docs/decisions/0018): the whole system as separate processes on a Postgres and a Redis of
 * its own; runs submitted through the gateway and followed over SSE while service processes are killed,
 * Redis is flushed and Postgres goes down; then one summary of what held. Everything it started is stopped and
 * its folder removed, whatever happens (`cleanup` also runs on SIGINT/SIGTERM through the caller).
 */
export async function runSoak(config: SoakConfig, progress: Progress, cleanup: Cleanup): Promise<SoakSummary> {
  const started = Date.now();
  const deadline = started + config.duration * 1_000;
  const random = new Random(config.seed);
  const root = mkdtempSync(path.join(tmpdir(), 'dossier-soak-'));
  let keepLogs = config.keepLogs;
  cleanup.add('remove the soak folder', () => {
    if (keepLogs) cpSync(path.join(root, 'logs'), logsKeptAt, { recursive: true });
    rmSync(root, { recursive: true, force: true });
  });
  const logsKeptAt = path.join(REPO_ROOT, 'tmp', 'soak', new Date(started).toISOString().replace(/[:.]/g, '-'));

  // The soak's own servers, on spare ports and in its own folder.
  const taken = new Set<number>();
  const postgres = new OwnPostgres(path.join(root, 'pg'), await sparePort(taken));
  const redis = new OwnRedis(path.join(root, 'redis'), await sparePort(taken));
  progress(`postgres on :${postgres.port}, redis on :${redis.port}, folder ${root}`);
  await postgres.init();
  cleanup.add('stop postgres', () => postgres.stop('fast'));
  await postgres.start();
  await createDatabase(postgres.adminUrl);
  await run('bash', [path.join(REPO_ROOT, 'tools/prisma.sh'), 'migrate', 'deploy'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: postgres.url },
  });
  cleanup.add('stop redis', () => redis.stop());
  await redis.start();
  const model: FakeOpenAIServer = await startModelServer(config.seed);
  cleanup.add('stop the model server', () => model.stop());
  const { tenantId, key } = await createTenant(postgres.url);

  const system = await SoakSystem.create({ databaseUrl: postgres.url, redisUrl: redis.url, modelBaseUrl: model.baseUrl, dir: root }, taken);
  cleanup.add('stop the services', () => system.stop());
  progress('starting the gateway, the conductor and the seven stage services');
  await system.start(Math.max(60_000, deadline - Date.now() - 60_000));
  const api = new ApiClient(system.gatewayUrl, key);
  await uploadCorpus(api, deadline);
  const setupDone = Date.now();
  progress(`system up after ${Math.round((setupDone - started) / 1000)} s; soak begins`);

  // Chaos: a kill every KILL_EVERY_MS on average, squeezed into the first 55 % of the remaining time if that is
  // shorter; submissions over the first half of the window; the rest of the time lets the runs finish.
  const windowMs = Math.max(10_000, Math.min(0.55 * (deadline - setupDone), config.kills * KILL_EVERY_MS));
  const chaosStop = new AbortController();
  const chaos = new Chaos(system, redis, postgres, new Random(config.seed + 1), {
    kills: config.kills,
    flushes: config.flushes,
    outages: config.outages,
    outageSeconds: config.outageSeconds,
    windowMs,
  });
  const chaosDone = chaos.run(chaosStop.signal);
  const followStop = new AbortController();
  const submitter = new Submitter(api, new Random(config.seed + 2), config.seed, config.modelEvery);
  const followers: Promise<FollowedRun>[] = [];
  const followRandom = new Random(config.seed + 3);
  const submissions: Promise<void>[] = [];
  const spacing = (0.5 * windowMs) / config.runs;
  for (let i = 0; i < config.runs; i++) {
    submissions.push(
      submitter
        .submit(i, deadline)
        .then((r) => {
          if (r) followers.push(new Follower(api, r.runId, followRandom).follow(followStop.signal));
        })
        .catch((err: unknown) => progress(`run ${i} was never acknowledged: ${(err as Error).message}`)),
    );
    await sleep(spacing * (0.5 + random.next()));
  }
  await Promise.all(submissions);
  progress(`${submitter.submitted.length} runs acknowledged`);

  // Until every run is over (or time is up); chaos stops once its plan is done.
  const chaosRecord = await Promise.race([chaosDone, sleep(deadline - Date.now()).then(() => undefined)]);
  chaosStop.abort();
  const record = chaosRecord ?? (await chaosDone);
  const chaosEnded = Date.now();
  progress(`chaos done: ${record.kills.length} kills, ${record.flushes.length} flushes, ${record.outages.length} outages`);
  await waitForRuns(
    postgres.url,
    submitter.submitted.map((s) => s.runId),
    deadline,
    progress,
  );
  // Streams of finished runs end within a poll or two; a follower still open at the deadline has a problem to report.
  await Promise.race([Promise.all(followers), sleep(Math.max(5_000, Math.min(30_000, deadline + 30_000 - Date.now())))]);
  followStop.abort();
  const followed = await Promise.all(followers);

  await system
    .service('gateway')
    .waitUp(60_000)
    .catch(() => undefined);
  const runs = await checkRuns(postgres.url, tenantId, submitter.submitted, submitter.rejected.length);
  const crashes = Object.fromEntries(system.services.map((s) => [s.name, s.crashes.length]));
  const body = {
    config,
    seconds: { total: 0, setup: Math.round((setupDone - started) / 1000), chaos: Math.round((chaosEnded - setupDone) / 1000) },
    runs,
    duplicateOutputs: await checkOutputs(postgres.url, tenantId),
    modelCalls: await checkModelCalls(postgres.url, tenantId, model.requests, record),
    audit: await checkAudit(
      api,
      submitter.submitted.map((s) => s.runId),
      Date.now() + 60_000,
    ),
    sse: await checkSse(postgres.url, followed),
    chaos: chaosSummary(record, crashes),
    gateway: { statuses: api.statuses, serverErrors: api.serverErrors },
  };
  body.seconds.total = Math.round((Date.now() - started) / 1000);
  const problems = problemsOf(body);
  keepLogs ||= problems.length > 0;
  return { ok: problems.length === 0, problems, ...body, logs: keepLogs ? logsKeptAt : null };
}

async function createDatabase(adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('CREATE DATABASE soak');
  } finally {
    await client.end();
  }
}

/** The tenant and API key of the soak's client, made with the repositories `dossier admin` uses. */
async function createTenant(url: string): Promise<{ tenantId: string; key: string }> {
  const prisma = new PrismaService({ url, poolMax: 2 });
  try {
    const tenant = await new TenantRepository(prisma).create('soak', {
      rateLimit: { perSecond: 10_000, burst: 10_000 },
    } as Prisma.InputJsonValue);
    const { key } = await new ApiKeyRepository(prisma).create(tenant.id, 'soak-client', 'member');
    return { tenantId: tenant.id, key };
  } finally {
    await prisma.$disconnect();
  }
}

async function waitForRuns(url: string, runIds: string[], deadline: number, progress: Progress): Promise<void> {
  let last = '';
  while (Date.now() < deadline) {
    const rows = await sql<{ status: string; n: string }>(
      url,
      'SELECT status, count(*) AS n FROM research_runs WHERE id = ANY($1::uuid[]) GROUP BY status',
      [runIds],
    ).catch(() => []);
    const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const line = JSON.stringify(counts);
    if (line !== last) progress(`runs: ${line}`);
    last = line;
    if (rows.length > 0 && rows.every((r) => TERMINAL.includes(r.status))) return;
    await sleep(2_000);
  }
}

/**
 * What the benches of runs that wait on the model share (`npm run bench -- model`, `npm run bench -- interviews`): the
 * real services, one process each (the conductor and the seven stage services, shipped settings), on a test database
 * holding the example corpus, against the local OpenAI-compatible server of libs/testing answering every request with
 * the role's offline answer after a fixed simulated latency.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROLES } from '@dossier/agents';
import { SERVICE_NAMES, ReportJson, type RunOptionsInput } from '@dossier/contracts';
import { PrismaService } from '@dossier/db';
import { ingestPaths } from '@dossier/sources';
import {
  FakeOpenAIServer,
  offlineRoleAnswer,
  sql,
  startChildService,
  startQdrantDouble,
  type ChildService,
  type FakeChatRequest,
  type TestDatabase,
} from '@dossier/testing';
import { prepareDatabase, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../../libs/workflow/test/fixtures/engine';
import { waitForStatus } from '../../libs/workflow/test/fixtures/run-queries';

export { TENANT };

export const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
/** The collection the corpus is ingested into; runs search it. */
export const COLLECTION = 'bench';
const CORPUS = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'kessmark-climate-office-bulletin-2024.md',
  'timeline-lake-varen-2014-2025.md',
  'brennmoor-hydro-statement-release-schedule.md',
  'tessel-growers-position-statement.md',
].map((f) => path.resolve(__dirname, '../../examples/corpus', f));

/**
 * The correct answer (the role's offline output), computed once per distinct input: the model server runs in this
 * process, and its offline NLP would otherwise make this one event loop, not the workers, the bound on throughput
 * (runs of the same question over the same corpus send the same inputs, ids being short and per request).
 */
const answers = new Map<string, unknown>();
const offlineOf = offlineRoleAnswer(ROLES);
function offlineAnswer(request: FakeChatRequest): unknown {
  const key = `${request.role} ${JSON.stringify(request.input)}`;
  if (!answers.has(key)) answers.set(key, offlineOf(request));
  return answers.get(key);
}

/** How long the model server took beyond its simulated latency (its own CPU: a bound on the bench, not the engine). */
export function serverDelays(model: FakeOpenAIServer, since: number, latencyMs: number): number[] {
  return model.requests
    .filter((r) => r.receivedAt >= since && r.answeredAt !== undefined && r.outcome === 200)
    .map((r) => r.answeredAt! - r.receivedAt - latencyMs);
}

/** Progress on stderr, so the tables on stdout stay clean. */
export function progressLog(label: string): (line: string) => void {
  const t0 = performance.now();
  return (line) => void process.stderr.write(`[${label} +${((performance.now() - t0) / 1000).toFixed(0)} s] ${line}\n`);
}

export function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface System {
  services: ChildService[];
  replicas: number;
  addReplica(): Promise<void>;
  close(): Promise<void>;
}

async function startSystem(
  db: TestDatabase,
  prefix: string,
  model: FakeOpenAIServer,
  qdrantUrl: string,
  profileDir: string | undefined,
  extraEnv: Record<string, string> = {},
): Promise<System> {
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    // Fifteen processes on a Postgres shared with everything else on this machine (max_connections 100): small pools.
    DATABASE_POOL_MAX: '2',
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    // info: each service says "<name> ready" when it consumes (the bench waits for that line).
    LOG_LEVEL: 'info',
    OTEL_SDK_DISABLED: 'true',
    METRICS_PORT: '0',
    SHUTDOWN_GRACE_MS: '5000',
    // Shared by the replicas through Qdrant (its protocol double), as in a deployment over several machines; on one
    // machine they could share VECTOR_DIR (LanceDB, decision 0033), but the figures of decision 0036 were taken so.
    QDRANT_URL: qdrantUrl,
    VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-bench-vectors-')),
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: 'sk-bench-local',
    OPENAI_MODEL: 'fake-model',
    OPENAI_RATE_PER_SECOND: '1000',
    OPENAI_MAX_OUTPUT_TOKENS: '32768',
    DOSSIER_LLM_TEST_ECHO: '1',
    ...extraEnv,
  };
  const services: ChildService[] = [];
  const start = async (names: readonly string[], label: string): Promise<void> => {
    const started = names.map((name) =>
      startChildService(
        path.resolve(__dirname, `../../apps/${name}/src/main.ts`),
        // A profiled process writes its profile when it exits (SIGTERM: startService closes the app and exits 0).
        profileDir
          ? { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-interval 200 --cpu-prof-dir=${path.join(profileDir, `${name}${label}`)}` }
          : env,
        `${name}${label}`,
      ),
    );
    services.push(...started);
    await Promise.all(started.map((s, i) => s.waitForOutput(new RegExp(`${names[i]} ready`))));
  };
  await start(['conductor', ...SERVICE_NAMES], '');
  const system: System = {
    services,
    replicas: 1,
    addReplica: async () => {
      system.replicas++;
      await start(SERVICE_NAMES, `#${system.replicas}`);
    },
    close: async () => {
      for (const s of services) s.kill('SIGTERM');
      await Promise.all(services.map((s) => s.exited));
    },
  };
  return system;
}

/** Everything a model-bound bench runs against; `close` stops and drops it all. */
export interface ModelBench {
  db: TestDatabase;
  prisma: PrismaService;
  model: FakeOpenAIServer;
  system: System;
  engine: TestEngine;
  /** Stops the services and starts them again, one process each, with these settings added (e.g. WORKER_CONCURRENCY). */
  restart(extraEnv: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** The test database with the corpus ingested, the model server, the services and an engine to start runs with. */
/** `profileDir`: every service process writes a V8 CPU profile there (`<dir>/<service>/…cpuprofile`) when it exits. */
export async function startModelBench(latencyMs: number, progress: (line: string) => void, profileDir?: string): Promise<ModelBench> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const db = await prepareDatabase();
  const prisma = new PrismaService({ url: db.url, poolMax: 4 });
  const model = await new FakeOpenAIServer({ answer: offlineAnswer, latencyMs: () => latencyMs }).start();
  const qdrant = await startQdrantDouble();
  let system: System | undefined;
  let engine: TestEngine | undefined;
  const close = async (): Promise<void> => {
    await engine?.close();
    await system?.close();
    await model.stop();
    await qdrant.close();
    await prisma.$disconnect();
    if (!process.env.BENCH_KEEP_DB) await db.drop();
  };
  try {
    const prefix = uniquePrefix('model');
    await ingestPaths(prisma, { tenantId: TENANT, collection: COLLECTION, paths: CORPUS });
    progress('corpus ingested; starting the conductor and the seven stage services');
    system = await startSystem(db, prefix, model, qdrant.url, profileDir);
    engine = await startEngine(db, prefix, []);
    const bench: ModelBench = {
      db,
      prisma,
      model,
      system,
      engine,
      close,
      restart: async (extraEnv) => {
        await bench.system.close();
        system = bench.system = await startSystem(db, prefix, model, qdrant.url, profileDir, extraEnv);
      },
    };
    return bench;
  } catch (err) {
    await close();
    throw err;
  }
}

/** One run of QUESTION with these options, started; its id. */
export async function startedRun(bench: ModelBench, options: RunOptionsInput, label: string): Promise<string> {
  const run = await bench.engine.commands.start({ tenantId: TENANT, question: QUESTION, options, actor: `bench ${label}` });
  return run.id;
}

/** One run of QUESTION with these options, to completion; its id. */
export async function completedRun(bench: ModelBench, options: RunOptionsInput, label: string): Promise<string> {
  const runId = await startedRun(bench, options, label);
  await waitForStatus(bench.db.url, runId, 'completed');
  return runId;
}

export async function reportOf(db: TestDatabase, runId: string): Promise<ReportJson> {
  const [row] = await sql<{ content: string }>(db.url, "SELECT content FROM report_artifacts WHERE run_id = $1 AND format = 'json'", [
    runId,
  ]);
  if (!row) throw new Error(`run ${runId} has no report.json`);
  return ReportJson.parse(JSON.parse(row.content));
}

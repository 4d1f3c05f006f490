/**
 * `npm run bench -- steps`: step overhead of the durable engine beside its floors (a bare BullMQ hop, a bare
 * Postgres commit), measured in the same run on the same Redis and Postgres, one run at a time and `BENCH_RUNS` runs
 * at once; the engine's CPU per step; and recovery time after a worker is killed with SIGKILL.
 *
 * Overhead of a step = (when Redis acknowledged the first step it decided) − (when the transport was handed it), in µs
 * on this process's monotonic clock: everything the engine adds around a handler that does nothing (the step's start,
 * the one transaction with checkpoint, events, routing and outbox, then the enqueue after commit). The floors: the
 * same interval for a BullMQ processor that only adds the next job, and one single-row Postgres INSERT committed on its
 * own, each with as many chains / connections at once as the engine has runs at once. A step cannot be faster than
 * one commit plus one enqueue, so the ratio to their sum is the figure to watch.
 *
 * CPU per step: `process.cpuUsage` over the engine's window (this process hosts the engine, its empty handlers and
 * the bench's own wait for the runs) over the steps the engine ran in it. The wait costs next to nothing: it is woken
 * in-process when the engine writes a run's final status and otherwise checks every 500 ms (it polled every 20 ms
 * before, about one query per step at one run at a time, counted as the engine's CPU; docs/decisions/0121). Socket
 * writes per step, to Postgres and to Redis, are counted over the same window (each write is a system call, and on
 * loopback the kernel delivers the packet in the writer's time: the largest single cost in the profile).
 *
 * Where the time goes: each measured step's interval is cut at the engine's round trips (tools/bench/step-marks.ts):
 * to the start statement, the start statement, the handler, the locking statement, routing, the transition with
 * COMMIT, the enqueue. Printed per segment (p50 / p90), single steps beside the fan-outs' shards, which wait for each
 * other on the run row (0164).
 *
 * Options: `--json FILE` writes the figures (tools/bench/step-report.ts); `--cpu-prof [--cpu-prof-dir DIR]` profiles
 * each engine window with the inspector (100 µs sampling) and prints where the CPU went (tools/bench/cpu-profile.ts);
 * its figures then include the profiler's own cost. Sizes: BENCH_RUNS (12), BENCH_HOPS (600), BENCH_COMMITS (600);
 * BENCH_SKIP_KILL=1 skips the SIGKILL part.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { SERVICE_NAMES } from '@dossier/contracts';
import { Socket } from 'node:net';
import { StepCommitRepository, type TransitionWrite } from '@dossier/db';
import { redisScriptNames, StepQueues } from '@dossier/queue';
import { startChildService, waitFor, type TestDatabase } from '@dossier/testing';
import {
  prepareDatabase,
  processEnv,
  REDIS_URL,
  settingsFor,
  startEngine,
  TENANT,
  uniquePrefix,
  type TestEngine,
} from '../../libs/workflow/test/fixtures/engine';
import { waitForStatus } from '../../libs/workflow/test/fixtures/run-queries';
import { formatSummary, summariseProfile, type CpuProfile } from './cpu-profile';
import { HopMarks, hopsPerChain, micros, warmUp } from './hop-marks';
import { instrumentEngine, type StepMarks } from './step-marks';
import {
  percentiles,
  StepBenchReport,
  type ConcurrencyFigures,
  type EngineFigures,
  type FloorFigures,
  type Percentiles,
  type SegmentFigures,
  type Window,
} from './step-report';
import { runBench } from './run-bench';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 12);
const HOPS = Number(process.env['BENCH_HOPS'] ?? 600);
const COMMITS = Number(process.env['BENCH_COMMITS'] ?? 600);

const { values: args } = parseArgs({
  options: { json: { type: 'string' }, 'cpu-prof': { type: 'boolean', default: false }, 'cpu-prof-dir': { type: 'string' } },
});
const PROFILE_DIR = args['cpu-prof'] ? path.resolve(args['cpu-prof-dir'] ?? 'out/bench/profiles') : undefined;

/** Wakes the bench's wait when the engine writes a run's final status (in this process; the wait still checks Postgres). */
const finalWrites = new EventTarget();
function instrumentFinalStatus(): void {
  const writeTransition = StepCommitRepository.prototype.writeTransition;
  StepCommitRepository.prototype.writeTransition = async function (this: StepCommitRepository, tx, w: TransitionWrite) {
    const rows = await writeTransition.call(this, tx, w);
    // Woken a moment later: the final write's transaction commits after this statement.
    if (w.patch.status !== undefined && w.patch.status !== 'running') setTimeout(() => finalWrites.dispatchEvent(new Event('final')), 5);
    return rows;
  };
}

/** Socket writes (system calls: `_write` of one buffer, `_writev` of corked ones) by remote port, since the process started. */
const socketWrites = new Map<number, number>();
function countSocketWrites(): void {
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (this: Socket, ...args: unknown[]) => unknown>;
  for (const method of ['_write', '_writev'] as const) {
    const original = proto[method];
    proto[method] = function (this: Socket, ...args: unknown[]) {
      const port = this.remotePort ?? 0;
      socketWrites.set(port, (socketWrites.get(port) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
}
/**
 * Bytes received by remote port, since the process started (`push` of each chunk a socket read): what the drivers
 * parse. The engine's responses shrink when it asks for fewer columns (docs/decisions/0133); a count, not a time.
 */
const socketBytesRead = new Map<number, number>();
function countSocketReads(): void {
  const push = Socket.prototype.push as (this: Socket, chunk: unknown, encoding?: BufferEncoding) => boolean;
  Socket.prototype.push = function (this: Socket, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk && typeof (chunk as { length?: unknown }).length === 'number') {
      const port = this.remotePort ?? 0;
      socketBytesRead.set(port, (socketBytesRead.get(port) ?? 0) + (chunk as { length: number }).length);
    }
    return push.call(this, chunk, encoding);
  };
}
const bytesFrom = (port: number): number => socketBytesRead.get(port) ?? 0;
/**
 * Redis commands sent, by name, since the process started: a Lua script by its BullMQ name (its SHA looked up among
 * BullMQ's scripts and the drain-aware variants, docs/decisions/0144), anything else by the command's own name.
 */
const redisCommands = new Map<string, number>();
function countRedisCommands(): void {
  const byHash = redisScriptNames();
  type Sent = { name: string; args: unknown[] };
  const proto = Redis.prototype as unknown as { sendCommand: (this: Redis, command: Sent, ...rest: unknown[]) => unknown };
  const sendCommand = proto.sendCommand;
  proto.sendCommand = function (this: Redis, command: Sent, ...rest: unknown[]) {
    const name = command.name === 'evalsha' ? (byHash.get(String(command.args[0])) ?? 'evalsha') : command.name;
    redisCommands.set(name, (redisCommands.get(name) ?? 0) + 1);
    return sendCommand.call(this, command, ...rest);
  };
}
const PG_PORT = Number(new URL(process.env['TEST_ADMIN_DATABASE_URL'] || 'postgresql://postgres@127.0.0.1:5432/postgres').port || 5432);
const REDIS_PORT = Number(new URL(REDIS_URL).port || 6379);
const writesTo = (port: number): number => socketWrites.get(port) ?? 0;

/** What a window counts, read at one moment: CPU and wall time (µs), socket writes and bytes read by destination, Redis commands by name. */
interface Counts {
  cpu: number;
  wall: number;
  writes: { postgres: number; redis: number };
  read: { postgres: number; redis: number };
  commands: ReadonlyMap<string, number>;
}

const NO_COUNTS: Counts = { cpu: 0, wall: 0, writes: { postgres: 0, redis: 0 }, read: { postgres: 0, redis: 0 }, commands: new Map() };

function counters(): Counts {
  const { user, system } = process.cpuUsage();
  return {
    cpu: user + system,
    wall: performance.now() * 1000,
    writes: { postgres: writesTo(PG_PORT), redis: writesTo(REDIS_PORT) },
    read: { postgres: bytesFrom(PG_PORT), redis: bytesFrom(REDIS_PORT) },
    commands: new Map(redisCommands),
  };
}

/** `a + sign × b`, count by count: a window's share (`add(end, start, -1)`), or shares summed. */
function add(a: Counts, b: Counts, sign: 1 | -1 = 1): Counts {
  const commands = new Map(a.commands);
  for (const [name, n] of b.commands) commands.set(name, (commands.get(name) ?? 0) + sign * n);
  return {
    cpu: a.cpu + sign * b.cpu,
    wall: a.wall + sign * b.wall,
    writes: { postgres: a.writes.postgres + sign * b.writes.postgres, redis: a.writes.redis + sign * b.writes.redis },
    read: { postgres: a.read.postgres + sign * b.read.postgres, redis: a.read.redis + sign * b.read.redis },
    commands,
  };
}

/** The inspector's sampling profiler around one window (only with --cpu-prof). */
async function profiled<T>(name: string, body: () => Promise<T>): Promise<{ value: T; profile?: { file: string; profile: CpuProfile } }> {
  if (!PROFILE_DIR) return { value: await body() };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    const value = await body();
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = path.join(PROFILE_DIR, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return { value, profile: { file, profile: profile as unknown as CpuProfile } };
  } finally {
    session.disconnect();
  }
}

/**
 * Waits until every run is completed, on one connection: a query when the engine wrote a final status (woken in-process)
 * and every 500 ms otherwise, so the bench's own CPU stays out of the engine's figure. Returns the queries it sent.
 */
async function waitCompleted(client: Client, runIds: readonly string[]): Promise<number> {
  for (let queries = 1; ; queries++) {
    const { rows } = await client.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM research_runs WHERE id = ANY($1::uuid[]) GROUP BY status',
      [runIds],
    );
    const bad = rows.find((r) => r.status === 'failed' || r.status === 'cancelled');
    if (bad) throw new Error(`a bench run is ${bad.status}`);
    if (rows.find((r) => r.status === 'completed')?.n === runIds.length) return queries;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        finalWrites.removeEventListener('final', wake);
        resolve();
      };
      const timer = setTimeout(wake, 500);
      finalWrites.addEventListener('final', wake);
    });
  }
}

/** RUNS runs, `atOnce` at a time, through the engine in this process; their per-step overhead and CPU. */
async function engineWindow(
  engine: TestEngine,
  db: TestDatabase,
  tracker: StepMarks,
  atOnce: number,
): Promise<{ figures: EngineFigures; profile?: { file: string; profile: CpuProfile } }> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const runIds: string[] = [];
    let polls = 0;
    const from = Date.now();
    // The runs' starts are not steps: each batch is started with the step queues paused, and what the starts cost (CPU,
    // wall, socket writes, bytes, Redis commands) is taken out of the steps' figures and reported apart (0163).
    const queues = engine.app.get(StepQueues);
    const pauseQueues = (paused: boolean) =>
      Promise.all(SERVICE_NAMES.map((service) => (paused ? queues.queue(service).pause() : queues.queue(service).resume())));
    let starts = NO_COUNTS;
    const window0 = counters();
    const { profile } = await profiled(`steps-${atOnce}-at-once`, async () => {
      for (let r = 0; r < RUNS; r += atOnce) {
        const start0 = counters();
        await pauseQueues(true);
        const batch = await Promise.all(
          Array.from({ length: Math.min(atOnce, RUNS - r) }, (_, i) =>
            engine.commands.start({
              tenantId: TENANT,
              question: `bench ${atOnce} ${r + i}`,
              options: { maxIterations: 2 },
              actor: 'bench',
            }),
          ),
        );
        await pauseQueues(false);
        starts = add(starts, add(counters(), start0, -1));
        runIds.push(...batch.map((run) => run.id));
        polls += await waitCompleted(
          client,
          batch.map((run) => run.id),
        );
      }
    });
    // The steps' share of the window: all of it but the starts.
    const { cpu, wall, writes, read, commands } = add(add(counters(), window0, -1), starts, -1);
    const to = Date.now();

    const { rows } = await client.query<{ step_key: string; cause_key: string }>(
      'SELECT step_key, cause_key FROM outbox WHERE run_id = ANY($1::uuid[])',
      [runIds],
    );
    const [{ n: steps } = { n: 0 }] = (
      await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM node_executions WHERE run_id = ANY($1::uuid[]) AND status = 'completed'",
        [runIds],
      )
    ).rows;
    const byCause = new Map<string, string[]>();
    for (const row of rows) byCause.set(row.cause_key, [...(byCause.get(row.cause_key) ?? []), row.step_key]);
    const overhead: number[] = [];
    const hop: number[] = [];
    const measured: string[] = [];
    for (const row of rows) {
      const decided = byCause.get(row.step_key);
      const self = tracker.startedAt(row.step_key);
      if (!decided || self === undefined) continue;
      const firstEnqueued = Math.min(...decided.map((k) => tracker.enqueued.get(k) ?? Infinity));
      const firstStarted = Math.min(...decided.map((k) => tracker.startedAt(k) ?? Infinity));
      if (Number.isFinite(firstEnqueued)) {
        overhead.push(firstEnqueued - self);
        measured.push(row.step_key);
      }
      if (Number.isFinite(firstStarted)) hop.push(firstStarted - self);
    }
    return {
      figures: {
        window: { from, to },
        runs: runIds.length,
        steps,
        overhead: percentiles(overhead),
        hop: percentiles(hop),
        cpuMicrosPerStep: Math.round(cpu / steps),
        runStartCpuMicros: Math.round(starts.cpu / runIds.length),
        wallMicrosPerStep: Math.round(wall / steps),
        // The bench's own wait queries are Postgres writes too: counted, and taken out.
        socketWritesPerStep: {
          postgres: Math.round(((writes.postgres - polls) / steps) * 10) / 10,
          redis: Math.round((writes.redis / steps) * 10) / 10,
        },
        benchQueries: polls,
        // The bench's wait queries' answers are a few dozen bytes each: left in.
        bytesReadPerStep: { postgres: Math.round(read.postgres / steps), redis: Math.round(read.redis / steps) },
        redisCommandsPerStep: Object.fromEntries(
          [...commands].filter(([, n]) => n > 0).map(([name, n]) => [name, Math.round((n / steps) * 100) / 100]),
        ),
        segments: tracker.segmentFigures(measured),
      },
      ...(profile ? { profile } : {}),
    };
  } finally {
    await client.end();
  }
}

/** `chains` bare BullMQ chains at once, HOPS hops in all: a processor that only adds the next job of its chain. */
async function bareBullmq(chains: number): Promise<{ overhead: number[]; hop: number[] }> {
  const prefix = uniquePrefix('bare');
  const perChain = hopsPerChain(HOPS, chains);
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('bare', { connection, prefix });
  const marks = new HopMarks();
  let open = chains;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const workerConnection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const id = (c: number, n: number): string => `hop.${c}.${n}`;
  const worker = new Worker(
    'bare',
    async (job: Job<{ c: number; n: number }>) => {
      const { c, n } = job.data;
      marks.started.set(id(c, n), micros());
      if (n >= perChain) {
        if (--open === 0) done();
        return;
      }
      await queue.add('hop', { c, n: n + 1 }, { jobId: id(c, n + 1), removeOnComplete: { count: HOPS * 2 } });
      marks.enqueued.set(id(c, n + 1), micros());
    },
    { connection: workerConnection, prefix, concurrency: Math.max(4, chains) },
  );
  await Promise.all(
    Array.from({ length: chains }, (_, c) => queue.add('hop', { c, n: 0 }, { jobId: id(c, 0), removeOnComplete: { count: HOPS * 2 } })),
  );
  await finished;
  // Closing waits for the processors still running: the last enqueue times are recorded after their add returns.
  await worker.close();
  const { overhead, hop } = marks.intervals(chains, perChain, id);
  await queue.obliterate({ force: true });
  await queue.close();
  await workerConnection.quit();
  await connection.quit();
  return { overhead, hop };
}

/** The Postgres floor: single-row INSERTs committed on their own (one round trip and one WAL flush), on `connections` at once. */
async function bareCommit(db: TestDatabase, connections: number): Promise<number[]> {
  const perConnection = Math.max(8, Math.floor(COMMITS / connections));
  const clients = Array.from({ length: connections }, () => new Client({ connectionString: db.url }));
  await Promise.all(clients.map((c) => c.connect()));
  const times: number[] = [];
  try {
    await clients[0]!.query(
      'CREATE TABLE IF NOT EXISTS bench_commit (id bigserial PRIMARY KEY, v int NOT NULL, at timestamptz NOT NULL DEFAULT now())',
    );
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < perConnection; i++) {
          const t = micros();
          await client.query('INSERT INTO bench_commit (v) VALUES ($1)', [i]);
          if (i >= warmUp(perConnection)) times.push(micros() - t);
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return times;
}

async function floorsAt(db: TestDatabase, atOnce: number): Promise<FloorFigures> {
  const from = Date.now();
  const commit = await bareCommit(db, atOnce);
  const bare = await bareBullmq(atOnce);
  return { window: { from, to: Date.now() }, commit: percentiles(commit), enqueue: percentiles(bare.overhead), hop: percentiles(bare.hop) };
}

async function sigkillRecovery(): Promise<{ lockMs: number; stalledMs: number; watchMs: number; recoveryMs: number }> {
  const db = await prepareDatabase();
  const prefix = uniquePrefix('kill');
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-bench-'));
  const log = path.join(dir, 'log');
  const release = path.join(dir, 'release');
  writeFileSync(log, '');
  // Production defaults for lock, stall and stall-watch settings (libs/config), not the tests' fast ones.
  const settings = { lockMs: 30_000, stalledMs: 1_000, watchMs: 500 };
  const env = {
    ...processEnv(db, prefix, {
      TEST_LOG: log,
      // scope is held until the kill, so it is in flight on the victim however long the standby takes to boot.
      TEST_SCRIPT: JSON.stringify({ queries: 1, sources: 1, sections: 1, holdUntil: { '.scope.': release } }),
    }),
    STEP_LOCK_MS: String(settings.lockMs),
    STALLED_INTERVAL_MS: String(settings.stalledMs),
    STALL_WATCH_INTERVAL_MS: String(settings.watchMs),
  };
  const worker = path.resolve(__dirname, '../../libs/workflow/test/fixtures/test-worker.ts');
  const victim = startChildService(worker, env, 'victim');
  const conductor = startChildService(path.resolve(__dirname, '../../apps/conductor/src/main.ts'), env, 'conductor');
  await Promise.all([victim.waitForOutput(/test-worker ready/), conductor.waitForOutput(/conductor ready/)]);
  const engine = await startEngine(db, prefix, []);
  const run = await engine.commands.start({ tenantId: TENANT, question: 'kill', options: { maxIterations: 1 }, actor: 'bench' });
  const key = `${run.id}.scope.0.0`;
  await waitFor('scope to start', () => readFileSync(log, 'utf8').includes(key));
  // A standby worker is up before the kill, as in a deployment with more than one replica.
  const standby = startChildService(worker, env, 'standby');
  await standby.waitForOutput(/test-worker ready/);
  victim.kill('SIGKILL');
  const killedAt = Date.now();
  writeFileSync(release, '');
  await waitFor('scope to restart elsewhere', () => readFileSync(log, 'utf8').split(key).length - 1 >= 2, { intervalMs: 20 });
  const recoveryMs = Date.now() - killedAt;
  await waitForStatus(db.url, run.id, 'completed');
  for (const child of [standby, conductor]) {
    child.kill('SIGTERM');
    await child.exited;
  }
  await engine.close();
  await db.drop();
  return { ...settings, recoveryMs };
}

const ratio = (engine: Percentiles, floors: FloorFigures): ConcurrencyFigures['ratio'] => {
  const r = (p: 'p50' | 'p90' | 'p99'): number => Math.round((engine[p] / (floors.commit[p] + floors.enqueue[p])) * 10) / 10;
  return { p50: r('p50'), p90: r('p90'), p99: r('p99') };
};

function printFigures(c: ConcurrencyFigures): void {
  const { engine, floors } = c;
  console.log(
    `\nStep overhead, ${c.runsAtOnce === 1 ? 'one run at a time' : `${c.runsAtOnce} runs at once`} (empty handlers; ${engine.steps} engine steps over ${engine.runs} runs; floors with ${c.runsAtOnce} connection(s) / chain(s) at once; µs)`,
  );
  console.log('| measure | n | p50 | p90 | p99 |');
  console.log('|---|---|---|---|---|');
  const rows: [string, Percentiles][] = [
    ['bare Postgres: one-row INSERT committed', floors.commit],
    ['bare BullMQ: dequeue → next enqueued', floors.enqueue],
    ['engine step: dequeue → commit → next enqueued', engine.overhead],
    ['bare BullMQ: dequeue → next dequeued', floors.hop],
    ['engine step: dequeue → next dequeued', engine.hop],
  ];
  for (const [name, v] of rows) console.log(`| ${name} | ${v.n} | ${v.p50} | ${v.p90} | ${v.p99} |`);
  console.log(
    `engine step / floor (bare commit + bare enqueue, same percentile): p50 ${c.ratio.p50}x, p90 ${c.ratio.p90}x, p99 ${c.ratio.p99}x`,
  );
  console.log(
    `engine CPU per step: ${engine.cpuMicrosPerStep} µs (process.cpuUsage over the window, the runs' starts taken out: ${engine.runStartCpuMicros ?? '?'} µs each, with the step queues paused); wall per step ${engine.wallMicrosPerStep} µs`,
  );
  console.log(
    `socket writes per step: ${engine.socketWritesPerStep.postgres} to Postgres, ${engine.socketWritesPerStep.redis} to Redis (the bench's own ${engine.benchQueries} wait queries not counted)`,
  );
  if (engine.redisCommandsPerStep) {
    const total = Object.values(engine.redisCommandsPerStep).reduce((a, b) => a + b, 0);
    const each = Object.entries(engine.redisCommandsPerStep).map(([name, n]) => `${name} ${n}`);
    console.log(`Redis commands per step: ${Math.round(total * 100) / 100} (${each.join(', ')})`);
  }
  if (engine.bytesReadPerStep)
    console.log(`bytes read per step: ${engine.bytesReadPerStep.postgres} from Postgres, ${engine.bytesReadPerStep.redis} from Redis`);
  if (engine.segments?.length) printSegments(engine.segments);
}

/** Where the steps' time went, segment by segment, single steps beside the shards (p50 / p90 of each segment alone). */
function printSegments(segments: readonly SegmentFigures[]): void {
  const label = { single: 'single steps', shard: "fan-outs' and loops' shards" } as const;
  console.log(`where the time goes (µs, p50 / p90 of each segment on its own; a step's segments add up to its interval):`);
  console.log(`| segment | ${segments.map((s) => `${label[s.kind]} (${s.n})`).join(' | ')} |`);
  console.log(`|---|${segments.map(() => '---|').join('')}`);
  segments[0]!.parts.forEach((part, i) => {
    console.log(`| ${part.segment} | ${segments.map((s) => `${s.parts[i]!.p50} / ${s.parts[i]!.p90}`).join(' | ')} |`);
  });
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const from = Date.now();
  const loadBefore = loadavg()[0]!;
  const db = await prepareDatabase();
  const prefix = uniquePrefix('bench');
  process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 2, gains: [0.9, 0.9] });
  delete process.env['TEST_LOG'];
  const tracker = instrumentEngine();
  instrumentFinalStatus();
  countSocketWrites();
  countSocketReads();
  countRedisCommands();
  const engine = await startEngine(db, prefix, SERVICE_NAMES);
  const settings = settingsFor(db, prefix);
  const concurrency: ConcurrencyFigures[] = [];
  const profiles: StepBenchReport['profiles'] = [];
  try {
    // Warm-up, not counted: the connections, and the JIT. One run was not enough: the window of one run at a time, measured
    // first, still paid the step path's compilation (its CPU per step fell by a third when the same window was measured
    // again: 0163). A worker in service runs thousands of steps; the figure is a warm step's. So as many runs as a window
    // has, all at once, the measured runs' shape.
    const warm = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        engine.commands.start({ tenantId: TENANT, question: `warm-up ${i}`, options: { maxIterations: 2 }, actor: 'bench' }),
      ),
    );
    for (const run of warm) await waitForStatus(db.url, run.id, 'completed');
    for (const atOnce of [...new Set([1, RUNS])]) {
      const floors = await floorsAt(db, atOnce);
      const { figures, profile } = await engineWindow(engine, db, tracker, atOnce);
      const c: ConcurrencyFigures = { runsAtOnce: atOnce, floors, engine: figures, ratio: ratio(figures.overhead, floors) };
      concurrency.push(c);
      printFigures(c);
      if (profile) {
        const summary = summariseProfile(profile.profile);
        console.log(formatSummary(`${atOnce} run(s) at once, ${profile.file}`, summary, figures.steps));
        profiles.push({ runsAtOnce: atOnce, file: profile.file, busyMicrosPerStep: Math.round((summary.busyMs * 1000) / figures.steps) });
      }
    }
  } finally {
    await engine.close();
    await db.drop();
  }
  const loadAfter = loadavg()[0]!;
  console.log(`\nload average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores`);
  let recovery: StepBenchReport['recovery'];
  if (process.env['BENCH_SKIP_KILL'] !== '1') {
    recovery = await sigkillRecovery();
    console.log(
      `\nSIGKILL recovery (lock ${recovery.lockMs} ms, stalled check every ${recovery.stalledMs} ms, stall watch every ${recovery.watchMs} ms, standby worker running): ${recovery.recoveryMs} ms from kill to the step restarting on another worker`,
    );
  }
  const window: Window = { from, to: Date.now() };
  const report = StepBenchReport.parse({
    bench: 'steps',
    pid: process.pid,
    window,
    node: process.version,
    cores: availableParallelism(),
    load: { before: loadBefore, after: loadAfter },
    settings: {
      hops: HOPS,
      commits: COMMITS,
      workerConcurrency: settings.concurrency,
      databasePoolMax: settings.databasePoolMax,
      profiled: PROFILE_DIR !== undefined,
    },
    concurrency,
    profiles,
    ...(recovery ? { recovery } : {}),
  });
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
}

runBench(main);

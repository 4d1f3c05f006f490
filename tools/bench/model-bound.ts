/**
 * `npm run bench -- model` (issue 18 item 4): runs that wait only on the model. The real services, one process each
 * (the conductor and the seven stage services, shipped settings, default WORKER_CONCURRENCY), on a test database
 * with the example corpus, against the local OpenAI-compatible server answering every request after a fixed
 * simulated latency. Measured:
 *
 * - one run alone: its wall time over the critical path of its dependent model calls (runCriticalPath, from
 *   llm_calls and the outbox's step graph), and the start skew of each fan-out's shards (node_executions);
 * - throughput: a batch of runs submitted at once, with one process per service and then two, in runs per minute
 *   (first submission to last completion), and between the first completion and the last (the pace once the first
 *   run is through, without the one run's fill that a small batch weighs heavily: decision 0161). The services are
 *   restarted for it with a low worker concurrency (BENCH_MODEL_CONCURRENCY, default 1) and the batch is large
 *   enough (BENCH_MODEL_BATCH, default 8) that the workers' slots, each waiting on the model, bound it, not the runs'
 *   own critical paths (decision 0134: 4 runs at the shipped concurrency of 8 took 16.5 s against 12.5 s for one
 *   alone, so a second process had nothing to add); one run alone on the same services is printed beside it as the
 *   batch's floor.
 *
 * Token use per report (by role, and per verified sentence) is read from the same runs' report.json.
 *
 * `--cpu-prof [--cpu-prof-dir DIR]`: every service process is profiled (`node --cpu-prof`, 200 µs sampling) and the
 * bench prints where their CPU went while the single runs ran (boot and warm-up left out), all services together and
 * per service, per step of those runs, with the repository's own functions by inclusive time.
 * `--json FILE`: the figures (tools/bench/model-report.ts).
 * `BENCH_KEEP_DB=1`: the bench's database is left in place, to read a run's steps, outbox and llm_calls afterwards
 * (decision 0155 timed each step from them).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ReportJson } from '@dossier/contracts';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { runCriticalPath, type RunCriticalPath } from '../../libs/db/src';
import {
  COLLECTION,
  completedRun,
  pct,
  progressLog,
  reportOf,
  serverDelays,
  startedRun,
  startModelBench,
  TENANT,
  type ModelBench,
} from './model-services';
import { formatSummary, inclusiveTimes, mergeProfiles, readProfile, summariseProfile, windowProfile } from './cpu-profile';
import { RunStateError } from '@dossier/errors';
import { waitForStatus } from '../../libs/workflow/test/fixtures/run-queries';
import {
  formatNodeWork,
  formatThroughput,
  ModelBenchReport,
  type NodeWork,
  type SingleRun,
  type SustainedLoad,
  type Throughput,
} from './model-report';
import { runBench } from './run-bench';

const { values: args } = parseArgs({
  options: { 'cpu-prof': { type: 'boolean', default: false }, 'cpu-prof-dir': { type: 'string' }, json: { type: 'string' } },
});
const PROFILE_DIR = args['cpu-prof'] ? path.resolve(args['cpu-prof-dir'] ?? 'out/bench/model-profiles') : undefined;

const LATENCY_MS = Number(process.env['BENCH_MODEL_LATENCY_MS'] ?? 500);
const SINGLE_RUNS = Number(process.env['BENCH_MODEL_RUNS'] ?? 2);
/** Runs per throughput batch; 0 skips the throughput part. */
const BATCH = Number(process.env['BENCH_MODEL_BATCH'] ?? 8);
/**
 * Runs kept in flight under the sustained load (decision 0167), and completions left out before its window and measured
 * in it; 0 skips it.
 */
const SUSTAINED = Number(process.env['BENCH_MODEL_SUSTAINED'] ?? 8);
/** Every service process's WORKER_CONCURRENCY during the throughput batches. */
const CONCURRENCY = Number(process.env['BENCH_MODEL_CONCURRENCY'] ?? 1);
const RUN_OPTIONS = { engine: 'openai', collection: COLLECTION, maxIterations: 2, perspectives: 2 } as const;

const progress = progressLog('model bench');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Start skew of each fan-out (node, iteration with more than one shard): last shard started − first, in ms. */
async function shardSkews(db: TestDatabase, runId: string): Promise<{ group: string; shards: number; skewMs: number }[]> {
  const rows = await sql<{ node: string; iteration: number; shards: string; skew_ms: string }>(
    db.url,
    `SELECT node, iteration, count(*) AS shards,
            round(extract(epoch FROM max(started_at) - min(started_at)) * 1000) AS skew_ms
       FROM node_executions WHERE run_id = $1 AND started_at IS NOT NULL
      GROUP BY node, iteration HAVING count(*) > 1 ORDER BY min(started_at)`,
    [runId],
  );
  return rows.map((r) => ({ group: `${r.node}.${r.iteration}`, shards: Number(r.shards), skewMs: Number(r.skew_ms) }));
}

/**
 * Where a run's time went beyond the model, per step: dispatch wait (decided, i.e. its outbox row written in the
 * deciding transaction, → started on a worker: the enqueue after commit, a free worker slot, the dequeue, the step's
 * lock and start), and non-model work (started → completed, minus the time a model request of the step was in flight).
 */
async function stepOverheads(db: TestDatabase, runId: string): Promise<{ waitMs: number[]; workMs: number[]; nodes: string[] }> {
  const rows = await sql<{ node: string; wait_ms: string; work_ms: string }>(
    db.url,
    `WITH model AS (
       SELECT step_key, sum(latency_ms) AS ms FROM llm_calls WHERE run_id = $1 AND engine <> 'offline' GROUP BY step_key)
     SELECT e.node, round(extract(epoch FROM e.started_at - o.created_at) * 1000) AS wait_ms,
            round(extract(epoch FROM e.completed_at - e.started_at) * 1000) - coalesce(m.ms, 0) AS work_ms
       FROM node_executions e JOIN outbox o ON o.step_key = e.step_key LEFT JOIN model m ON m.step_key = e.step_key
      WHERE e.run_id = $1 AND e.status = 'completed'`,
    [runId],
  );
  return {
    waitMs: rows.map((r) => Number(r.wait_ms)),
    workMs: rows.map((r) => Math.max(0, Number(r.work_ms))),
    nodes: rows.map((r) => r.node),
  };
}

function oneRun(bench: ModelBench, label: string): Promise<string> {
  return completedRun(bench, RUN_OPTIONS, label);
}

/**
 * A batch of runs submitted together: runs per minute from the first submission to the last completion, and between
 * the first completion and the last (the pace once the first run is through; `steadyRunsPerMinute`).
 */
async function throughput(
  bench: ModelBench,
  label: string,
): Promise<{ runsPerMinute: number; seconds: number; completedSeconds: number[]; steadyRunsPerMinute?: number }> {
  const started = performance.now();
  const completed: number[] = [];
  await Promise.all(
    Array.from({ length: BATCH }, (_, i) =>
      oneRun(bench, `${label} ${i}`).then(() => completed.push((performance.now() - started) / 1000)),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  completed.sort((a, b) => a - b);
  const span = completed[completed.length - 1]! - completed[0]!;
  return {
    runsPerMinute: (BATCH / seconds) * 60,
    seconds,
    completedSeconds: completed,
    ...(BATCH > 1 && span > 0 ? { steadyRunsPerMinute: ((BATCH - 1) / span) * 60 } : {}),
  };
}

/**
 * Throughput under a sustained load: SUSTAINED runs in flight, each completion submitting the next run at once. The
 * first SUSTAINED completions (the fill, and the first wave that a batch is) are left out; the pace is taken over the
 * next SUSTAINED. The runs still in flight then are cancelled and the services left idle, so the next part starts
 * from nothing. A batch's time is its fill plus its drain, when fewer runs than slots are left: it measures a run's
 * latency as much as the services' pace (0161, 0167).
 */
async function sustainedLoad(bench: ModelBench, label: string, processesPerService: number): Promise<SustainedLoad> {
  const [warmupRuns, measuredRuns] = [SUSTAINED, SUSTAINED];
  const completions: number[] = [];
  const inFlight = new Set<string>();
  const started = performance.now();
  let submitted = 0;
  let over = false;
  await new Promise<void>((resolve, reject) => {
    const submit = (): void => {
      const i = submitted++;
      void startedRun(bench, RUN_OPTIONS, `${label} ${i}`)
        .then(async (runId) => {
          inFlight.add(runId);
          try {
            await waitForStatus(bench.db.url, runId, 'completed');
          } catch (err) {
            if (over) return; // cancelled below, once the window is over
            throw err;
          }
          inFlight.delete(runId);
          if (over) return;
          completions.push((performance.now() - started) / 1000);
          if (completions.length < warmupRuns + measuredRuns) return submit();
          over = true;
          resolve();
        })
        .catch((err: unknown) => {
          over = true;
          reject(err as Error);
        });
    };
    for (let i = 0; i < SUSTAINED; i++) submit();
  });
  const ids = [...inFlight];
  for (const id of ids) {
    await bench.engine.commands.cancel(TENANT, id, 'the sustained window is over', 'bench').catch((err: unknown) => {
      // A run that completed meanwhile cannot be cancelled, and needs nothing.
      if (!(err instanceof RunStateError)) throw err;
    });
  }
  await waitFor('the cancelled runs to stop', async () => {
    const [row] = await sql<{ n: string }>(
      bench.db.url,
      "SELECT count(*) AS n FROM node_executions WHERE run_id = ANY($1::uuid[]) AND status = 'running'",
      [ids],
    );
    return Number(row?.n) === 0;
  });
  await sleep(2 * LATENCY_MS);
  const windowSeconds = completions[warmupRuns + measuredRuns - 1]! - completions[warmupRuns - 1]!;
  return {
    processesPerService,
    inFlight: SUSTAINED,
    warmupRuns,
    measuredRuns,
    windowSeconds,
    runsPerMinute: (measuredRuns / windowSeconds) * 60,
  };
}

function printPath(p: RunCriticalPath, runId: string): void {
  const steps = new Map<string, { calls: number; ms: number }>();
  for (const c of p.calls) {
    const key = c.stepKey.slice(runId.length + 1);
    const s = steps.get(key) ?? { calls: 0, ms: 0 };
    steps.set(key, { calls: s.calls + 1, ms: s.ms + c.latencyMs });
  }
  console.log(`  path: ${[...steps].map(([k, s]) => `${k}${s.calls > 1 ? ` ×${s.calls}` : ''}`).join(' → ')}`);
}

const hrMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** CPU (user + system) the service processes have used so far, in ms, from /proc (Linux; NaN elsewhere). */
function servicesCpuMs(bench: ModelBench): number {
  let ticks = 0;
  for (const s of bench.system.services) {
    try {
      const stat = readFileSync(`/proc/${s.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return NaN;
    }
  }
  return ticks * 10; // USER_HZ = 100
}

/**
 * Transactions committed or rolled back in the bench's database so far (every autocommit statement is one). A backend
 * reports them when it goes idle, at most once a second and at the latest 10 s after: read after a pause.
 */
async function pgTransactions(db: TestDatabase): Promise<number> {
  const [row] = await sql<{ n: string }>(
    db.url,
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(row?.n ?? NaN);
}

/** Non-model work per node over the single runs, the largest total first. */
function byNode(nodes: string[], works: number[]): NodeWork[] {
  const groups = new Map<string, number[]>();
  nodes.forEach((n, i) => groups.set(n, [...(groups.get(n) ?? []), works[i]!]));
  return [...groups]
    .map(([node, ws]) => ({ node, steps: ws.length, p50: pct(ws, 50), max: Math.max(...ws), totalMs: ws.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.totalMs - a.totalMs || a.node.localeCompare(b.node));
}

async function main(): Promise<void> {
  const load = [loadavg()[0]!];
  const bench = await startModelBench(LATENCY_MS, progress, PROFILE_DIR);
  const { db, prisma } = bench;
  let singleSteps: number | undefined;
  let window: { from: number; to: number } | undefined;
  let report: ModelBenchReport | undefined;
  try {
    progress('services ready; warm-up run');
    // Warm-up (each process compiles and connects on its first steps), not counted.
    await oneRun(bench, 'warm-up');
    progress('warm-up done');

    const concurrency = process.env['WORKER_CONCURRENCY'] ?? 'default (8)';
    console.log(
      `\nRuns that wait on the model (simulated latency ${LATENCY_MS} ms per request; options ${JSON.stringify(RUN_OPTIONS)}; one process per service, worker concurrency ${concurrency})`,
    );
    console.log('| run | model calls | wall s | critical path s | wall / path | fan-outs: shards and start skew (ms) |');
    console.log('|---|---|---|---|---|---|');
    const ratios: number[] = [];
    const skews: number[] = [];
    const reports: ReportJson[] = [];
    const waits: number[] = [];
    const works: number[] = [];
    const nodes: string[] = [];
    const singles: SingleRun[] = [];
    let lastPath: { path: RunCriticalPath; runId: string } | undefined;
    await sleep(11_000);
    const [cpuFrom, txFrom] = [servicesCpuMs(bench), await pgTransactions(db)];
    const from = hrMicros();
    const runIds: string[] = [];
    for (let i = 0; i < SINGLE_RUNS; i++) runIds.push(await oneRun(bench, `single ${i}`));
    window = { from, to: hrMicros() };
    const cpuMs = servicesCpuMs(bench) - cpuFrom;
    await sleep(11_000);
    const transactions = (await pgTransactions(db)) - txFrom;
    for (const [i, runId] of runIds.entries()) {
      progress(`single run ${i + 1} done`);
      const p = await runCriticalPath(prisma, TENANT, runId);
      const fanouts = await shardSkews(db, runId);
      const over = await stepOverheads(db, runId);
      waits.push(...over.waitMs);
      works.push(...over.workMs);
      nodes.push(...over.nodes);
      skews.push(...fanouts.map((f) => f.skewMs));
      ratios.push(p.wallMs / p.lengthMs);
      reports.push(await reportOf(db, runId));
      lastPath = { path: p, runId };
      singles.push({
        modelCalls: p.modelCalls,
        wallMs: p.wallMs,
        criticalPathMs: p.lengthMs,
        ratio: p.wallMs / p.lengthMs,
        fanOuts: fanouts,
      });
      console.log(
        `| ${i + 1} | ${p.modelCalls} | ${(p.wallMs / 1000).toFixed(1)} | ${(p.lengthMs / 1000).toFixed(1)} | ${(p.wallMs / p.lengthMs).toFixed(2)} | ${fanouts.map((f) => `${f.group}: ${f.shards} / ${f.skewMs}`).join(', ')} |`,
      );
    }
    const nodeWork = byNode(nodes, works);
    if (lastPath) {
      printPath(lastPath.path, lastPath.runId);
      console.log(
        `per step (${waits.length} steps): dispatch wait p50 ${pct(waits, 50)} ms, p90 ${pct(waits, 90)} ms; non-model work p50 ${pct(works, 50)} ms, p90 ${pct(works, 90)} ms`,
      );
      console.log(
        `wall / critical path: median ${pct(ratios, 50).toFixed(2)} (target ≤ 1.10); fan-out start skew: p50 ${pct(skews, 50)} ms, max ${Math.max(...skews)} ms (target ≤ 50 ms)`,
      );
      console.log(
        `service processes' CPU per step: ${(cpuMs / waits.length).toFixed(1)} ms; Postgres transactions per step: ${(transactions / waits.length).toFixed(1)} (the single runs' window, every service and the bench's own polling)`,
      );
      console.log(`\nNon-model work by node (the single runs)\n${formatNodeWork(nodeWork)}`);
    }
    singleSteps = waits.length;
    load.push(loadavg()[0]!);

    const throughput = BATCH > 0 ? await throughputs(bench, load) : undefined;
    if (reports.length > 0) printTokens(reports);
    console.log(`load average (1 min) ${load.map((l) => l.toFixed(1)).join(' → ')} on this machine's cores`);
    report = ModelBenchReport.parse({
      latencyMs: LATENCY_MS,
      singles: {
        workerConcurrency: concurrency,
        runs: singles,
        ratioMedian: pct(ratios, 50),
        skewP50: pct(skews, 50),
        skewMax: Math.max(0, ...skews),
        steps: waits.length,
        dispatchWait: { p50: pct(waits, 50), p90: pct(waits, 90) },
        nonModelWork: { p50: pct(works, 50), p90: pct(works, 90) },
        cpuMsPerStep: cpuMs / waits.length,
        pgTransactionsPerStep: transactions / waits.length,
        byNode: nodeWork,
      },
      ...(throughput ? { throughput } : {}),
      load,
    });
  } finally {
    await bench.close();
  }
  if (args.json && report) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  if (PROFILE_DIR && window) printProfiles(PROFILE_DIR, singleSteps ?? 0, window);
}

/** The services' CPU profiles (written as they exited) over the single runs' window: all together, by function, per service. */
function printProfiles(dir: string, steps: number, window: { from: number; to: number }): void {
  const perService = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.includes('#'))
    .map((d) => {
      const files = readdirSync(path.join(dir, d.name)).filter((f) => f.endsWith('.cpuprofile'));
      const profiles = files.map((f) => windowProfile(readProfile(path.join(dir, d.name, f)), window.from, window.to));
      return { service: d.name, profile: mergeProfiles(profiles) };
    });
  const merged = mergeProfiles(perService.map((p) => p.profile));
  const all = summariseProfile(merged, 40);
  const seconds = ((window.to - window.from) / 1e6).toFixed(1);
  console.log(formatSummary(`every service process over the single runs (${seconds} s), ${dir}`, all, steps));
  console.log('\n| own function (inclusive: itself and what it calls) | category | ms | share of busy |');
  console.log('|---|---|---|---|');
  for (const f of inclusiveTimes(merged, 60)) {
    console.log(`| ${f.fn.replaceAll('|', '\\|')} | ${f.category} | ${f.selfMs.toFixed(1)} | ${(f.selfShare * 100).toFixed(1)} % |`);
  }
  console.log('\n| service process | busy ms | busy µs per step |');
  console.log('|---|---|---|');
  for (const p of perService) {
    const s = summariseProfile(p.profile, 0);
    console.log(`| ${p.service} | ${s.busyMs.toFixed(0)} | ${steps > 0 ? Math.round((s.busyMs * 1000) / steps) : '-'} |`);
  }
}

/**
 * The batch with one process per service, then two (BENCH_MODEL_BATCH=0 skips this), every process at worker
 * concurrency CONCURRENCY: the services are restarted with it first, and one run alone is timed on them.
 */
async function throughputs(bench: ModelBench, load: number[]): Promise<Throughput> {
  const { model } = bench;
  progress(`restarting the services at worker concurrency ${CONCURRENCY}`);
  await bench.restart({ WORKER_CONCURRENCY: String(CONCURRENCY) });
  await oneRun(bench, 'warm-up x1');
  const aloneFrom = performance.now();
  await oneRun(bench, 'alone x1');
  const aloneSeconds = (performance.now() - aloneFrom) / 1000;
  progress(`throughput: ${BATCH} runs, one process per service (one alone: ${aloneSeconds.toFixed(1)} s)`);
  const oneFrom = Date.now();
  const one = await throughput(bench, 'x1');
  const oneDelays = serverDelays(model, oneFrom, LATENCY_MS);
  load.push(loadavg()[0]!);
  const oneSustained = await sustainedPart(bench, 'x1', 1, load);
  progress(`${one.seconds.toFixed(0)} s; starting a second process of each service`);
  await bench.system.addReplica();
  await oneRun(bench, 'warm-up 2');
  progress(`throughput: ${BATCH} runs, two processes per service`);
  const twoFrom = Date.now();
  const two = await throughput(bench, 'x2');
  const twoDelays = serverDelays(model, twoFrom, LATENCY_MS);
  load.push(loadavg()[0]!);
  const twoSustained = await sustainedPart(bench, 'x2', 2, load);
  const t: Throughput = {
    runs: BATCH,
    workerConcurrency: CONCURRENCY,
    aloneSeconds,
    batches: [
      { processesPerService: 1, ...one, serverDelayP50: pct(oneDelays, 50), serverDelayP90: pct(oneDelays, 90) },
      { processesPerService: 2, ...two, serverDelayP50: pct(twoDelays, 50), serverDelayP90: pct(twoDelays, 90) },
    ],
    gain: two.runsPerMinute / one.runsPerMinute,
    ...(one.steadyRunsPerMinute && two.steadyRunsPerMinute ? { steadyGain: two.steadyRunsPerMinute / one.steadyRunsPerMinute } : {}),
    ...(oneSustained && twoSustained
      ? { sustained: [oneSustained, twoSustained], sustainedGain: twoSustained.runsPerMinute / oneSustained.runsPerMinute }
      : {}),
  };
  console.log(formatThroughput(t, LATENCY_MS));
  return t;
}

/** The sustained load on the services as they are (BENCH_MODEL_SUSTAINED=0 skips it). */
async function sustainedPart(bench: ModelBench, label: string, processes: number, load: number[]): Promise<SustainedLoad | undefined> {
  if (SUSTAINED <= 0) return undefined;
  progress(`sustained load: ${SUSTAINED} runs in flight, ${processes} process${processes > 1 ? 'es' : ''} per service`);
  const result = await sustainedLoad(bench, `sustained ${label}`, processes);
  load.push(loadavg()[0]!);
  progress(`sustained: ${result.runsPerMinute.toFixed(2)} runs per minute over ${result.windowSeconds.toFixed(1)} s`);
  return result;
}

/** Prompt and completion tokens per role and tokens per verified sentence, averaged over the single runs' reports. */
function printTokens(reports: ReportJson[]): void {
  console.log(`\nTokens per report (the single runs above; model requests only)`);
  const roles = new Map<string, { tokensIn: number; tokensOut: number; calls: number }>();
  for (const r of reports) {
    for (const [role, u] of Object.entries(r.metrics.byRole ?? {})) {
      const s = roles.get(role) ?? { tokensIn: 0, tokensOut: 0, calls: 0 };
      roles.set(role, { tokensIn: s.tokensIn + u.tokensIn, tokensOut: s.tokensOut + u.tokensOut, calls: s.calls + u.calls });
    }
  }
  console.log('| role | calls | prompt tokens | completion tokens |');
  console.log('|---|---|---|---|');
  const n = reports.length;
  for (const [role, s] of [...roles].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`| ${role} | ${(s.calls / n).toFixed(1)} | ${Math.round(s.tokensIn / n)} | ${Math.round(s.tokensOut / n)} |`);
  }
  const per = reports.map((r) => r.metrics.tokensPerVerifiedSentence ?? NaN);
  const sentences = reports.map((r) => r.metrics.verifiedSentences ?? NaN);
  console.log(
    `verified sentences per report: ${sentences.join(', ')}; tokens per verified sentence: ${per.map((x) => Math.round(x)).join(', ')}`,
  );
}

runBench(main);

/**
 * The figures of `npm run bench -- model` (tools/bench/model-bound.ts) as data: `--json FILE` writes this, and the
 * bench's own test (tools/bench/test/model-report.spec.ts) parses it and checks that what the bench prints is what it
 * wrote. Times in ms unless named otherwise.
 */
import { z } from 'zod';

const ms = z.number().nonnegative();

export const SingleRun = z.object({
  modelCalls: z.number().int().nonnegative(),
  wallMs: ms,
  criticalPathMs: ms,
  /** wall / critical path. */
  ratio: z.number().nonnegative(),
  fanOuts: z.array(z.object({ group: z.string(), shards: z.number().int().positive(), skewMs: ms })),
});
export type SingleRun = z.infer<typeof SingleRun>;

/** Non-model work of the single runs' steps of one node (started → completed minus the step's model requests). */
export const NodeWork = z.object({ node: z.string(), steps: z.number().int().positive(), p50: ms, max: ms, totalMs: ms });
export type NodeWork = z.infer<typeof NodeWork>;

export const Batch = z.object({
  processesPerService: z.number().int().positive(),
  seconds: z.number().positive(),
  runsPerMinute: z.number().positive(),
  /** When each run of the batch completed, in seconds from the batch's submission, in order. */
  completedSeconds: z.array(z.number().nonnegative()).optional(),
  /**
   * Runs per minute between the first and the last completion ((runs − 1) / that time): the batch's pace once the
   * first run is through, without the fill that every batch pays once (one run's way through the services).
   */
  steadyRunsPerMinute: z.number().positive().optional(),
  /** The model server's own delay beyond its simulated latency, p50 / p90 (its CPU: a bound on the bench). */
  serverDelayP50: z.number(),
  serverDelayP90: z.number(),
});
export type Batch = z.infer<typeof Batch>;

/**
 * Throughput under a sustained load (decision 0167): `inFlight` runs kept in flight, a completed run replaced at once by
 * a new one; the pace over `measuredRuns` completions after the first `warmupRuns` (the fill and the first wave, which a
 * batch is made of, are left out).
 */
export const SustainedLoad = z.object({
  processesPerService: z.number().int().positive(),
  inFlight: z.number().int().positive(),
  warmupRuns: z.number().int().nonnegative(),
  measuredRuns: z.number().int().positive(),
  /** From the last warm-up completion to the last measured one. */
  windowSeconds: z.number().positive(),
  runsPerMinute: z.number().positive(),
});
export type SustainedLoad = z.infer<typeof SustainedLoad>;

export const Throughput = z.object({
  /** Runs submitted at once. */
  runs: z.number().int().positive(),
  /** WORKER_CONCURRENCY of every service process during the batches: slots, not critical paths, bound them. */
  workerConcurrency: z.number().int().positive(),
  /** One run alone on the same services (the batch's floor: no batch finishes before its runs' critical paths). */
  aloneSeconds: z.number().positive(),
  batches: z.array(Batch).length(2),
  /** Runs per minute with two processes per service over one. */
  gain: z.number().positive(),
  /** The same for the steady pace (`steadyRunsPerMinute`); absent for a batch of one run. */
  steadyGain: z.number().positive().optional(),
  /** One process per service, then two, under a sustained load; absent when skipped (BENCH_MODEL_SUSTAINED=0). */
  sustained: z.array(SustainedLoad).length(2).optional(),
  /** Runs per minute under the sustained load, two processes per service over one. */
  sustainedGain: z.number().positive().optional(),
});
export type Throughput = z.infer<typeof Throughput>;

export const ModelBenchReport = z.object({
  latencyMs: z.number().int().nonnegative(),
  singles: z.object({
    workerConcurrency: z.string(),
    runs: z.array(SingleRun),
    ratioMedian: z.number().nonnegative(),
    skewP50: ms,
    skewMax: ms,
    steps: z.number().int().nonnegative(),
    dispatchWait: z.object({ p50: ms, p90: ms }),
    nonModelWork: z.object({ p50: ms, p90: ms }),
    /** The service processes' CPU (user + system, /proc) over the single runs, per step: less noisy than wall time. */
    cpuMsPerStep: z.number().nonnegative(),
    /** Transactions in the bench's database over the single runs, per step (pg_stat_database; each autocommit statement is one). */
    pgTransactionsPerStep: z.number().nonnegative(),
    byNode: z.array(NodeWork),
  }),
  throughput: Throughput.optional(),
  /** Load average (1 min) at the start and after each part. */
  load: z.array(z.number().nonnegative()),
});
export type ModelBenchReport = z.infer<typeof ModelBenchReport>;

/** The throughput part as printed (a Markdown table and the gain line). */
export function formatThroughput(t: Throughput, latencyMs: number): string {
  return [
    `\nThroughput (${t.runs} runs submitted at once; worker concurrency ${t.workerConcurrency} per service process; ${latencyMs} ms per model request; one run alone on these services: ${t.aloneSeconds.toFixed(1)} s)`,
    '| processes per service | seconds | runs per minute | model server delay beyond latency p50 / p90 ms | runs per minute, first to last completion |',
    '|---|---|---|---|---|',
    ...t.batches.map(
      (b) =>
        `| ${b.processesPerService} | ${b.seconds.toFixed(1)} | ${b.runsPerMinute.toFixed(2)} | ${b.serverDelayP50} / ${b.serverDelayP90} | ${b.steadyRunsPerMinute?.toFixed(2) ?? '-'} |`,
    ),
    ...t.batches.map(
      (b) => `completed (s), ${b.processesPerService} per service: ${b.completedSeconds?.map((c) => c.toFixed(1)).join(', ') ?? '-'}`,
    ),
    `2 vs 1: ${t.gain.toFixed(2)}x (goal ≥ 1.7x)`,
    ...(t.steadyGain ? [`2 vs 1 from the first completion to the last (the batch's fill left out): ${t.steadyGain.toFixed(2)}x`] : []),
    ...(t.sustained ? formatSustained(t.sustained, t.sustainedGain) : []),
  ].join('\n');
}

function formatSustained(loads: readonly SustainedLoad[], gain: number | undefined): string[] {
  const [first] = loads;
  if (!first) return [];
  return [
    `\nSustained load (${first.inFlight} runs kept in flight, a completed run replaced at once; the pace over ${first.measuredRuns} completions after the first ${first.warmupRuns})`,
    '| processes per service | window seconds | runs per minute |',
    '|---|---|---|',
    ...loads.map((l) => `| ${l.processesPerService} | ${l.windowSeconds.toFixed(1)} | ${l.runsPerMinute.toFixed(2)} |`),
    ...(gain ? [`2 vs 1 under a sustained load: ${gain.toFixed(2)}x (goal ≥ 1.7x)`] : []),
  ];
}

/** The non-model work per node as printed, slowest total first. */
export function formatNodeWork(rows: readonly NodeWork[]): string {
  return [
    '| node | steps | non-model work p50 ms | max ms | total ms |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.node} | ${r.steps} | ${r.p50} | ${r.max} | ${r.totalMs} |`),
  ].join('\n');
}

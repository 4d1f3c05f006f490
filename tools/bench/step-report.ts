/**
 * The figures of `npm run bench -- steps` (tools/bench/step-overhead.ts) as data: `--json FILE` writes this, and the
 * bench's own test (tools/bench/test/step-bench.spec.ts) parses it. Every interval is in µs on the bench process's
 * monotonic clock; every window is epoch ms, so a reader can check that the floors were measured in the same run as
 * the engine they are compared with.
 */
import { z } from 'zod';

export const Percentiles = z.object({
  n: z.number().int().positive(),
  p50: z.number().nonnegative(),
  p90: z.number().nonnegative(),
  p99: z.number().nonnegative(),
});
export type Percentiles = z.infer<typeof Percentiles>;

export const Window = z.object({ from: z.number(), to: z.number() }).refine((w) => w.to >= w.from, 'a window ends after it starts');
export type Window = z.infer<typeof Window>;

/**
 * Where the steps' time went between their dequeue and their first decided step enqueued, segment by segment
 * (tools/bench/step-marks.ts): single steps apart from the shards of fan-outs and shard loops, which wait for each other
 * on the run row. A step's segments add up to its interval; their p50s need not add up to the interval's p50.
 */
export const SegmentFigures = z.object({
  kind: z.enum(['single', 'shard']),
  n: z.number().int().positive(),
  parts: z.array(z.object({ segment: z.string(), p50: z.number().nonnegative(), p90: z.number().nonnegative() })).min(1),
});
export type SegmentFigures = z.infer<typeof SegmentFigures>;

export const EngineFigures = z.object({
  window: Window,
  runs: z.number().int().positive(),
  /** Steps the engine ran in the window (completed executions of the measured runs). */
  steps: z.number().int().positive(),
  /** Dequeue (the transport handed the job) → the first step it decided acknowledged by Redis. */
  overhead: Percentiles,
  /** Dequeue → the first step it decided dequeued. */
  hop: Percentiles,
  /**
   * This process's CPU (user + system, `process.cpuUsage`) over the window, per step: the engine and its handlers. Since
   * 0163 without the runs' starts (before, each run's start, about 14 ms of CPU, was spread over its steps).
   */
  cpuMicrosPerStep: z.number().nonnegative(),
  /** CPU of one run's start (`RunCommands.start`, the step queues paused meanwhile); absent in reports before 0163. */
  runStartCpuMicros: z.number().nonnegative().optional(),
  /** The window's wall time per step (the starts' wall taken out since 0163). */
  wallMicrosPerStep: z.number().nonnegative(),
  /** Socket writes (system calls) per step over the window, by destination; the bench's own wait queries taken out. */
  socketWritesPerStep: z.object({ postgres: z.number().nonnegative(), redis: z.number().nonnegative() }),
  /** Queries the bench's own wait for the runs sent in the window (woken in-process, else every 500 ms). */
  benchQueries: z.number().int().nonnegative(),
  /** Bytes received per step over the window, by source (what the drivers parse); absent in reports before 0133. */
  bytesReadPerStep: z.object({ postgres: z.number().nonnegative(), redis: z.number().nonnegative() }).optional(),
  /** Redis commands per step over the window, by name (a BullMQ script by its name); absent in reports before 0144. */
  redisCommandsPerStep: z.record(z.string(), z.number().nonnegative()).optional(),
  /** Where the measured steps' time went, by kind; absent in reports before 0164. */
  segments: z.array(SegmentFigures).optional(),
});
export type EngineFigures = z.infer<typeof EngineFigures>;

export const FloorFigures = z.object({
  window: Window,
  /** One single-row INSERT committed on its own, this many connections at once. */
  commit: Percentiles,
  /** A bare BullMQ processor that only adds the next job: dequeue → next enqueued, this many chains at once. */
  enqueue: Percentiles,
  /** Dequeue → next dequeued, bare. */
  hop: Percentiles,
});
export type FloorFigures = z.infer<typeof FloorFigures>;

export const ConcurrencyFigures = z.object({
  /** Runs in flight at once (1: one run after another; its fan-outs still run their shards together). */
  runsAtOnce: z.number().int().positive(),
  floors: FloorFigures,
  engine: EngineFigures,
  /** Engine overhead over (bare commit + bare enqueue) at the same percentile. */
  ratio: z.object({ p50: z.number(), p90: z.number(), p99: z.number() }),
});
export type ConcurrencyFigures = z.infer<typeof ConcurrencyFigures>;

export const StepBenchReport = z.object({
  bench: z.literal('steps'),
  pid: z.number().int(),
  window: Window,
  node: z.string(),
  cores: z.number().int().positive(),
  load: z.object({ before: z.number(), after: z.number() }),
  /** Sizes and settings the figures were taken with. */
  settings: z.object({
    hops: z.number().int(),
    commits: z.number().int(),
    workerConcurrency: z.number().int(),
    databasePoolMax: z.number().int(),
    /** True when a CPU profiler ran during the engine windows: CPU and wall figures include its cost. */
    profiled: z.boolean(),
  }),
  concurrency: z.array(ConcurrencyFigures).min(1),
  profiles: z.array(z.object({ runsAtOnce: z.number().int(), file: z.string(), busyMicrosPerStep: z.number() })),
  recovery: z.object({ lockMs: z.number(), stalledMs: z.number(), watchMs: z.number(), recoveryMs: z.number() }).optional(),
});
export type StepBenchReport = z.infer<typeof StepBenchReport>;

export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) throw new Error('no values to take percentiles of');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99) };
}

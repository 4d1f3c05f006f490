/**
 * The figures of `npm run bench -- designs` (tools/bench/step-designs.ts) as data: `--json FILE` writes this, and the
 * bench's own test (tools/bench/test/step-designs.spec.ts) parses it. Intervals in µs on the bench process's monotonic
 * clock; windows in epoch ms.
 */
import { z } from 'zod';
import { Percentiles, Window } from './step-report';

export const DesignFigures = z.object({
  /** `bullmq`: the engine's design, bare; `postgres`: a transport in Postgres alone (decision 0163). */
  design: z.enum(['bullmq', 'postgres']),
  /** Chains of steps in flight at once. */
  chains: z.number().int().positive(),
  window: Window,
  hops: z.object({
    /** Dequeue → the next step enqueued (postgres: its row committed). */
    overhead: Percentiles,
    /** Dequeue → the next step dequeued. */
    hop: Percentiles,
    /** The bench process's CPU over the design's window, per hop (counted hops and warm-up alike). */
    cpuMicrosPerHop: z.number().nonnegative(),
    wallMicrosPerHop: z.number().nonnegative(),
  }),
});
export type DesignFigures = z.infer<typeof DesignFigures>;

export const DesignBenchReport = z.object({
  bench: z.literal('designs'),
  pid: z.number().int().positive(),
  window: Window,
  load: z.object({ before: z.number().nonnegative(), after: z.number().nonnegative() }),
  designs: z.array(DesignFigures).min(1),
});
export type DesignBenchReport = z.infer<typeof DesignBenchReport>;

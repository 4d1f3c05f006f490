import { z } from 'zod';

/**
 * Admission to a rate-limited resource (one search provider's API). `acquire` resolves when the caller
 * may start one request; it rejects with the signal's reason when the signal aborts first.
 */
export interface RateLimiter {
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * No start for anyone sharing this limiter during the next `ms` (a provider answered 429 with
   * Retry-After): every worker backs off, not only the one that was told.
   */
  pauseFor?(ms: number): Promise<void>;
}

export const RateLimitOptionsSchema = z.strictObject({
  /** Sustained starts per second (may be fractional: 0.5 = one every two seconds). */
  ratePerSecond: z.number().positive().finite(),
  /** Starts allowed back to back after an idle period. 1 = evenly spaced, never two in one interval. */
  burst: z.int().min(1).default(1),
  /**
   * Requests reach the provider with network jitter: spacing them exactly 1/rate apart lets the
   * provider's one-second window now and then count one too many, which costs a 429 and a Retry-After
   * sleep. Every second is stretched by this margin instead (default 50 ms, about 5% of throughput).
   */
  marginMs: z.number().min(0).max(10_000).default(50),
});
export type RateLimitOptions = z.input<typeof RateLimitOptionsSchema>;

/** Microseconds between two starts: a one-second window (plus margin) shared out over the rate. */
export function emissionIntervalUs(options: z.output<typeof RateLimitOptionsSchema>): number {
  return Math.ceil(((1000 + options.marginMs) * 1000) / options.ratePerSecond);
}

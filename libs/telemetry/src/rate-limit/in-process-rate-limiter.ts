import { emissionIntervalUs, RateLimitOptionsSchema, type RateLimiter, type RateLimitOptions } from './rate-limiter';
import { sleep } from './sleep';

/**
 * The same cell-rate algorithm as `RedisRateLimiter`, for one process (tests, the CLI, a deployment
 * without Redis). Two instances do not share anything: give every caller of one provider the same one.
 */
export class InProcessRateLimiter implements RateLimiter {
  private readonly intervalUs: number;
  private readonly toleranceUs: number;
  /** Theoretical arrival time of the next start, in µs on the monotonic clock. */
  private tatUs = 0;

  constructor(options: RateLimitOptions) {
    const parsed = RateLimitOptionsSchema.parse(options);
    this.intervalUs = emissionIntervalUs(parsed);
    this.toleranceUs = (parsed.burst - 1) * this.intervalUs;
  }

  async pauseFor(ms: number): Promise<void> {
    // The next start is due when the pause ends, whatever the burst allowance.
    this.tatUs = Math.max(this.tatUs, (performance.now() + ms) * 1000 + this.toleranceUs);
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const nowUs = performance.now() * 1000;
      const tat = Math.max(this.tatUs, nowUs);
      const allowAt = tat - this.toleranceUs;
      if (nowUs >= allowAt) {
        this.tatUs = tat + this.intervalUs;
        return;
      }
      // Not a reservation: an aborted waiter must not leave a hole that slows everyone else down.
      await sleep(Math.ceil((allowAt - nowUs) / 1000), signal);
    }
  }
}

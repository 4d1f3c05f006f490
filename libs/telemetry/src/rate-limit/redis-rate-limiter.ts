import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { emissionIntervalUs, RateLimitOptionsSchema, type RateLimiter } from './rate-limiter';
import { sleep } from './sleep';

/**
 * GCRA (the cell-rate form of a token bucket) in one script, so the check and the update are atomic
 * across every worker. The key holds the theoretical arrival time (TAT) of the next start, in µs of
 * the Redis server clock: one clock for all workers, so their skew does not matter. Returns 0 when the
 * caller may start now (and books the start), otherwise the milliseconds to wait before asking again.
 * Waiters book nothing, so an aborted waiter leaves no hole. The key expires a minute after its TAT
 * has passed (an expired key is the same as a full bucket). '%.0f' keeps the µs timestamp an exact
 * integer string (Lua would print it in exponent form).
 */
export const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allow_at = tat - tolerance
if now < allow_at then
  return math.ceil((allow_at - now) / 1000)
end
local next_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', next_tat), 'PX', math.ceil((next_tat - now) / 1000) + 60000)
return 0
`;
const GCRA_SHA = createHash('sha1').update(GCRA_SCRIPT).digest('hex');

/** The admission test of GCRA_SCRIPT without booking: 0 when a start would be admitted now, else the ms to wait. */
export const PEEK_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tolerance = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allow_at = tat - tolerance
if now < allow_at then
  return math.ceil((allow_at - now) / 1000)
end
return 0
`;
const PEEK_SHA = createHash('sha1').update(PEEK_SCRIPT).digest('hex');

/** Moves the TAT to at least `now + pause + tolerance`, so the next start anywhere is after the pause. */
export const PAUSE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local target = now + tonumber(ARGV[1]) + tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < target then
  redis.call('SET', KEYS[1], string.format('%.0f', target), 'PX', math.ceil((target - now) / 1000) + 60000)
end
return 0
`;
const PAUSE_SHA = createHash('sha1').update(PAUSE_SCRIPT).digest('hex');

const RedisRateLimitOptionsSchema = RateLimitOptionsSchema.extend({
  /** What is limited, e.g. `search:brave:<hash of the key>`; every worker using the same key shares the budget. */
  key: z.string().min(1).max(200),
  prefix: z.string().default('dossier:ratelimit:'),
});
export type RedisRateLimitOptions = z.input<typeof RedisRateLimitOptionsSchema>;

/**
 * A rate limit shared by every worker process through Redis: at most `ratePerSecond` starts per second
 * (stretched by `marginMs`), `burst` back to back after an idle spell. With `burst: 1` no one-second
 * window ever holds more than `ratePerSecond` starts. Redis errors propagate (ioredis waits for a
 * reconnect first when the connection has `maxRetriesPerRequest: null`).
 */
export class RedisRateLimiter implements RateLimiter {
  readonly key: string;
  private readonly intervalUs: number;
  private readonly toleranceUs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisRateLimitOptions,
  ) {
    const parsed = RedisRateLimitOptionsSchema.parse(options);
    this.key = `${parsed.prefix}${parsed.key}`;
    this.intervalUs = emissionIntervalUs(parsed);
    this.toleranceUs = (parsed.burst - 1) * this.intervalUs;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.tryAcquire();
      if (waitMs <= 0) return;
      await sleep(waitMs, signal);
    }
  }

  /** One atomic attempt: 0 when admitted, else the milliseconds until the next start could be. */
  async tryAcquire(): Promise<number> {
    return Number(await this.run(GCRA_SCRIPT, GCRA_SHA, String(this.intervalUs), String(this.toleranceUs)));
  }

  /** Would a start be admitted now? 0 if so, else the milliseconds to wait; books nothing (a check before costly work). */
  async peek(): Promise<number> {
    return Number(await this.run(PEEK_SCRIPT, PEEK_SHA, String(this.toleranceUs)));
  }

  async pauseFor(ms: number): Promise<void> {
    await this.run(PAUSE_SCRIPT, PAUSE_SHA, String(Math.ceil(Math.max(0, ms) * 1000)), String(this.toleranceUs));
  }

  private async run(script: string, sha: string, ...args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(sha, 1, this.key, ...args);
    } catch (err) {
      // The script cache is empty after a Redis restart or SCRIPT FLUSH: send the script itself once.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(script, 1, this.key, ...args);
    }
  }
}

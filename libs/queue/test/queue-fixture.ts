import type { QueueOptions } from '../src/queue-options';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A producer's queue options for a test of its own (a prefix no other test shares); `overrides` for what it checks. */
export function testQueueOptions(name: string, overrides: Partial<QueueOptions> = {}): QueueOptions {
  return {
    redisUrl: REDIS_URL,
    prefix: `t-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    consume: [],
    concurrency: 1,
    lockDurationMs: 2000,
    stalledIntervalMs: 1000,
    attempts: 1,
    backoffMs: 100,
    ...overrides,
  };
}

import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { QUEUE_OPTIONS, REDIS, type QueueOptions } from '@dossier/queue';
import { RedisRateLimiter } from '@dossier/telemetry';
import { RateLimitedError } from '../common/http-errors';
import { GATEWAY_ENV } from '../gateway-tokens';
import type { GatewayEnv } from '../gateway-env';

/**
 * Failed authentications per client address, through the same GCRA in Redis as the tenant limit, so every
 * replica counts together. A failure books one start; once an address has spent its budget, its requests are
 * refused with 429 and Retry-After before any key is looked up (valid or not, so the answer tells a guesser
 * nothing), until the budget refills. Addresses are hashed into the key: no client address is stored in Redis.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly limiters = new Map<string, RedisRateLimiter>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUEUE_OPTIONS) private readonly queue: QueueOptions,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  /** Throws 429 if this address has failed to authenticate too often lately. */
  async checkAllowed(address: string): Promise<void> {
    const waitMs = await this.limiter(address).peek();
    if (waitMs > 0) throw this.refusal(waitMs);
  }

  /** Books one failure; returns the 429 to answer instead of the 401 if concurrent failures spent the budget first. */
  async recordFailure(address: string): Promise<RateLimitedError | undefined> {
    const waitMs = await this.limiter(address).tryAcquire();
    return waitMs > 0 ? this.refusal(waitMs) : undefined;
  }

  private refusal(waitMs: number): RateLimitedError {
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    return new RateLimitedError(`Too many failed authentications from this address; retry after ${retryAfter} s`, retryAfter, {
      details: { reason: 'authentication_failures', retryAfterSeconds: retryAfter },
    });
  }

  private limiter(address: string): RedisRateLimiter {
    let limiter = this.limiters.get(address);
    if (!limiter) {
      if (this.limiters.size > 10_000) this.limiters.clear();
      limiter = new RedisRateLimiter(this.redis, {
        key: `gateway:authfail:${createHash('sha256').update(address).digest('hex').slice(0, 32)}`,
        prefix: `${this.queue.prefix}:ratelimit:`,
        ratePerSecond: this.env.AUTH_FAILURE_RATE_PER_MINUTE / 60,
        burst: this.env.AUTH_FAILURE_BURST,
        marginMs: 0,
      });
      this.limiters.set(address, limiter);
    }
    return limiter;
  }
}

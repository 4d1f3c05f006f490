import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { TenantPolicy } from '@dossier/contracts';
import { QUEUE_OPTIONS, REDIS, type QueueOptions } from '@dossier/queue';
import { RedisRateLimiter } from '@dossier/telemetry';
import { RateLimitedError } from '../common/http-errors';
import { GATEWAY_ENV } from '../gateway-tokens';
import type { GatewayEnv } from '../gateway-env';

/**
 * Per-tenant request rate through the shared GCRA limiter in Redis, so every gateway replica draws on
 * the same budget. Limiters are cached per (tenant, rate, burst): a policy change builds a new one.
 */
@Injectable()
export class TenantRateLimiter {
  private readonly limiters = new Map<string, RedisRateLimiter>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUEUE_OPTIONS) private readonly queue: QueueOptions,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  async check(tenantId: string, policy: TenantPolicy): Promise<void> {
    const perSecond = policy.rateLimit?.perSecond ?? this.env.RATE_LIMIT_PER_SECOND;
    const burst = policy.rateLimit?.burst ?? this.env.RATE_LIMIT_BURST;
    const id = `${tenantId}:${perSecond}:${burst}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      if (this.limiters.size > 10_000) this.limiters.clear();
      limiter = new RedisRateLimiter(this.redis, {
        key: `gateway:${tenantId}`,
        prefix: `${this.queue.prefix}:ratelimit:`,
        ratePerSecond: perSecond,
        burst,
        marginMs: 0,
      });
      this.limiters.set(id, limiter);
    }
    const waitMs = await limiter.tryAcquire();
    if (waitMs > 0) {
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      throw new RateLimitedError(
        `Rate limit of ${perSecond} requests per second exceeded for this tenant; retry after ${retryAfter} s`,
        retryAfter,
        {
          details: { perSecond, burst, retryAfterSeconds: retryAfter },
        },
      );
    }
  }
}

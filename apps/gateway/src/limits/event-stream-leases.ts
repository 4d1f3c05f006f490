import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { QUEUE_OPTIONS, REDIS, type QueueOptions } from '@dossier/queue';
import { TenantLimitError } from '@dossier/errors';

/** A stream's lease: renewed while it is open, so a replica that died without closing its streams frees them soon. */
const LEASE_MS = 60_000;

// One sorted set per key: member = stream id, score = lease expiry. Expired members are dropped, then the stream is
// admitted if the key holds fewer than the limit. Atomic in Redis, so every replica counts together.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[3]) then return -held - 1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return held + 1`;

/** An admitted stream: renew while open, release when it ends. */
export interface StreamLease {
  release(): Promise<void>;
}

/**
 * Concurrent event streams per API key (issue 30): 150 open `GET /v1/runs/{id}/events` with one key were all held,
 * each a Postgres subscription and a socket. A stream takes a lease in Redis before it opens; one over the key's limit
 * is refused with 429 (`limit: event_streams_per_key`).
 */
@Injectable()
export class EventStreamLeases {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUEUE_OPTIONS) private readonly queue: QueueOptions,
  ) {}

  private key(keyId: string): string {
    return `${this.queue.prefix}:limits:streams:${keyId}`;
  }

  /** Streams the key holds open now. */
  async held(keyId: string): Promise<number> {
    const key = this.key(keyId);
    await this.redis.zremrangebyscore(key, '-inf', Date.now());
    return this.redis.zcard(key);
  }

  async acquire(keyId: string, max: number): Promise<StreamLease> {
    const key = this.key(keyId);
    const id = randomUUID();
    const now = Date.now();
    const result = Number(await this.redis.eval(ACQUIRE, 1, key, now, now + LEASE_MS, max, id, LEASE_MS * 2));
    if (result < 0) {
      throw new TenantLimitError(
        'event_streams_per_key',
        `This key already holds ${-result - 1} open event streams, its limit; close one first`,
        5,
        { max, current: -result - 1 },
      );
    }
    const renew = setInterval(() => {
      void this.redis
        .zadd(key, 'XX', Date.now() + LEASE_MS, id)
        .then(() => this.redis.pexpire(key, LEASE_MS * 2))
        .catch(() => undefined); // Redis away for a moment: the lease runs on until the next renewal.
    }, LEASE_MS / 3);
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await this.redis.zrem(key, id);
      },
    };
  }
}

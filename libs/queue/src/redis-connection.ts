import { Redis } from 'ioredis';
import type { Logger } from '@dossier/telemetry';

/**
 * BullMQ needs `maxRetriesPerRequest: null` on connections that block (workers); we use it everywhere
 * so a Redis restart makes commands wait for the reconnect instead of failing a step.
 */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: name });
}

/**
 * With any eviction policy but `noeviction`, Redis may silently drop job keys under memory pressure.
 * Postgres reconciliation would recover the steps, but it would be slow and surprising: say so loudly.
 */
export async function warnUnlessNoEviction(redis: Redis, logger: Logger): Promise<string | undefined> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    if (policy !== undefined && policy !== 'noeviction') {
      logger.warn(
        { maxmemoryPolicy: policy },
        `REDIS MISCONFIGURED: maxmemory-policy is "${policy}", not "noeviction". Redis may evict queued jobs; ` +
          'the conductor will re-enqueue them from Postgres, but runs will stall until it does. Set maxmemory-policy noeviction.',
      );
    }
    return policy;
  } catch (err) {
    // Managed Redis often forbids CONFIG: we cannot check, and say that instead of guessing.
    logger.warn({ err: (err as Error).message }, 'Could not read Redis maxmemory-policy (CONFIG GET refused); make sure it is noeviction');
    return undefined;
  }
}

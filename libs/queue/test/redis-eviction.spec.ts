import { Redis } from 'ioredis';
import { warnUnlessNoEviction } from '../src/redis-connection';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('Redis eviction policy check (real Redis)', () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  let original: string | undefined;
  beforeAll(async () => {
    original = ((await redis.config('GET', 'maxmemory-policy')) as string[])[1];
  });
  afterAll(async () => {
    if (original) await redis.config('SET', 'maxmemory-policy', original);
    await redis.quit();
  });

  function capture() {
    const warnings: string[] = [];
    return { warnings, logger: { warn: (_obj: unknown, msg: string) => warnings.push(msg) } as never };
  }

  it('warns loudly, naming the policy, when it is not noeviction; stays quiet when it is', async () => {
    await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
    const bad = capture();
    await expect(warnUnlessNoEviction(redis, bad.logger)).resolves.toBe('allkeys-lru');
    expect(bad.warnings.join('\n')).toMatch(/REDIS MISCONFIGURED: maxmemory-policy is "allkeys-lru"/);

    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    const good = capture();
    await expect(warnUnlessNoEviction(redis, good.logger)).resolves.toBe('noeviction');
    expect(good.warnings).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { InProcessRateLimiter, RedisRateLimiter, TavilySearchProvider, type RateLimiter } from '../../src';
import { scripted, startFakeServer, tavilyApi } from '@dossier/testing';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Starts `total` acquisitions at once, spread round-robin over the limiters; returns when each resolved. */
async function acquireAll(limiters: RateLimiter[], total: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      await limiters[i % limiters.length]!.acquire();
      times.push(performance.now());
    }),
  );
  return times.sort((a, b) => a - b);
}

/** When a start was asked for (the call that was admitted was sent) and when the admission arrived. */
interface Admission {
  sent: number;
  received: number;
}

/**
 * `total` starts at once, spread over the limiters, each through the limiter's own atomic attempt
 * (`tryAcquire`, as `acquire` does): returns, per start, when the admitted call was sent and when its answer
 * came back. The admission itself happened in Redis in between.
 */
async function admitAll(limiters: RedisRateLimiter[], total: number): Promise<Admission[]> {
  return Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const limiter = limiters[i % limiters.length]!;
      for (;;) {
        const sent = performance.now();
        const waitMs = await limiter.tryAcquire();
        const received = performance.now();
        if (waitMs <= 0) return { sent, received };
        await new Promise((r) => setTimeout(r, waitMs));
      }
    }),
  );
}

/**
 * The shortest time that any `n` admissions can be proven to span: for every admission i taken as the
 * earliest of n, the (n-1) others that could have come soonest after it, from its send time to the last
 * one's answer. Each admission happened between its `sent` and `received`, so a limiter that lets n starts
 * into less than a window shows up here whatever the machine's load; a slow machine only makes this larger.
 */
function shortestProvenSpan(admissions: Admission[], n: number): number {
  let shortest = Infinity;
  for (const first of admissions) {
    const others = admissions
      .filter((a) => a !== first && a.sent >= first.sent)
      .map((a) => a.received)
      .sort((x, y) => x - y);
    if (others.length < n - 1) continue;
    shortest = Math.min(shortest, Math.max(first.received, others[n - 2]!) - first.sent);
  }
  return shortest;
}

/** The most starts inside any window of `windowMs` (half-open), from sorted times. */
function maxInWindow(times: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    max = Math.max(max, j - i + 1);
  }
  return max;
}

describe('RedisRateLimiter (real Redis, shared by two "workers")', () => {
  // One connection per simulated worker, as two processes would have.
  const workerA = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const workerB = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = `test:ratelimit:${randomUUID()}:`;
  afterAll(async () => {
    const keys = await workerA.keys(`${prefix}*`);
    if (keys.length > 0) await workerA.del(...keys);
    await Promise.all([workerA.quit(), workerB.quit()]);
  });

  it('peek admits or refuses like tryAcquire but books nothing', async () => {
    // A rate so low that nothing refills during the test: every count is exact whatever the machine's speed.
    const limiter = new RedisRateLimiter(workerA, { key: `peek-${randomUUID()}`, ratePerSecond: 0.0001, burst: 2, marginMs: 0, prefix });
    expect(await limiter.peek()).toBe(0);
    expect(await limiter.peek()).toBe(0);
    expect(await limiter.tryAcquire()).toBe(0);
    expect(await limiter.peek()).toBe(0);
    expect(await limiter.tryAcquire()).toBe(0);
    expect(await limiter.peek()).toBeGreaterThan(0);
    expect(await limiter.tryAcquire()).toBeGreaterThan(0);
  });

  it('two limiters on one key at 5/s: 30 starts take at least 5.8 s and no second ever holds more than 5', async () => {
    const key = `shared-${randomUUID()}`;
    const a = new RedisRateLimiter(workerA, { key, ratePerSecond: 5, prefix });
    const b = new RedisRateLimiter(workerB, { key, ratePerSecond: 5, prefix });
    const started = performance.now();
    const admissions = await admitAll([a, b], 30);
    const elapsed = Math.max(...admissions.map((x) => x.received)) - started;

    // burst 1: the first start is free, the other 29 are 1/5 s apart at least. Only lower bounds: a busy
    // machine makes everything later, never earlier (how fast it went is reported, not asserted).
    expect(elapsed).toBeGreaterThanOrEqual((29 / 5) * 1000);
    const span = shortestProvenSpan(admissions, 6);
    process.stdout.write(`redis limiter: 30 starts in ${Math.round(elapsed)} ms; any 6 starts span at least ${Math.round(span)} ms\n`);
    expect(span).toBeGreaterThanOrEqual(1000);
  });

  it('lets `burst` starts through at once, then paces', async () => {
    const limiter = new RedisRateLimiter(workerA, { key: `burst-${randomUUID()}`, ratePerSecond: 5, burst: 3, prefix });
    const started = performance.now();
    // The burst: three admitted on their first attempt, however long the calls took.
    expect([await limiter.tryAcquire(), await limiter.tryAcquire(), await limiter.tryAcquire()]).toEqual([0, 0, 0]);
    const times = [started, started, started, ...(await acquireAll([limiter], 2))];
    expect(times[3]! - started).toBeGreaterThanOrEqual(200);
    // GCRA schedules against the start, not the previous grant: a late 4th start (a pause on a busy machine)
    // does not push the 5th, but the 5th never comes before its slot at 2 intervals after the burst.
    expect(times[4]! - started).toBeGreaterThanOrEqual(400);
  });

  it('keys are independent', async () => {
    const x = new RedisRateLimiter(workerA, { key: `x-${randomUUID()}`, ratePerSecond: 1, prefix });
    const y = new RedisRateLimiter(workerB, { key: `y-${randomUUID()}`, ratePerSecond: 1, prefix });
    await x.acquire();
    // x's next start must wait a second; y's first is admitted on its first attempt.
    expect(await x.tryAcquire()).toBeGreaterThan(0);
    expect(await y.tryAcquire()).toBe(0);
  });

  it('an aborted waiter rejects with the reason and leaves no hole for the others', async () => {
    const key = `abort-${randomUUID()}`;
    const a = new RedisRateLimiter(workerA, { key, ratePerSecond: 2, prefix });
    const b = new RedisRateLimiter(workerB, { key, ratePerSecond: 2, prefix });
    // Read before the first start is asked for: Redis grants it no earlier, so b's start, one interval after that grant,
    // is at least 500 ms after t0 however late the grant's answer reaches this process (CI measured 286 ms from a t0
    // read after the answer, on a loaded machine).
    const t0 = performance.now();
    await a.acquire();
    const controller = new AbortController();
    const aborted = a.acquire(controller.signal);
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    // Rejected, not admitted: a waiter that ignored the abort would resolve once its slot came.
    await expect(aborted).rejects.toThrow('cancelled');
    // The next start is still due one interval (525 ms) after the first, not two: Redis says how long is left,
    // and time passing only makes that shorter (a slot booked by the aborted waiter would make it ~1 s).
    expect(await b.tryAcquire()).toBeLessThanOrEqual(525);
    await b.acquire();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(400);
  });

  it('a 429 told to one worker pauses the others sharing the limiter', async () => {
    const key = `pause-${randomUUID()}`;
    const server = await startFakeServer(
      scripted(
        [{ status: 429, headers: { 'retry-after': '1' }, json: { detail: { error: 'blocked' } } }],
        tavilyApi('k-1234', [{ title: 'A', url: 'https://a.example/', text: 'a' }]),
      ),
    );
    try {
      const worker = (redis: Redis) =>
        new TavilySearchProvider({
          apiKey: 'k-1234',
          baseUrl: server.url,
          limiter: new RedisRateLimiter(redis, { key, ratePerSecond: 50, prefix }),
        });
      const query = { tenantId: randomUUID(), query: 'a', limit: 1 };
      const first = worker(workerA).search(query);
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 200)); // worker B starts well inside worker A's Retry-After
      const second = worker(workerB).search(query);
      await expect(Promise.all([first, second])).resolves.toHaveLength(2);
      expect(server.requests).toHaveLength(3);
      const t0 = server.requests[0]!.at;
      // Without the shared pause B's request would have arrived ~200 ms after the 429.
      expect(server.requests[1]!.at - t0).toBeGreaterThanOrEqual(1000);
      expect(server.requests[2]!.at - t0).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });

  it('sends the script itself when Redis has lost it (NOSCRIPT)', async () => {
    const calls: string[] = [];
    const fake = {
      evalsha: async () => {
        calls.push('evalsha');
        throw new Error('NOSCRIPT No matching script. Please use EVAL.');
      },
      eval: async (...args: unknown[]) => {
        calls.push('eval');
        return workerA.eval(...(args as [string, number, string, string, string]));
      },
    } as unknown as Redis;
    const limiter = new RedisRateLimiter(fake, { key: `noscript-${randomUUID()}`, ratePerSecond: 1, prefix });
    await expect(limiter.tryAcquire()).resolves.toBe(0);
    expect(calls).toEqual(['evalsha', 'eval']);
    // Refused until one interval (1050 ms) after the first; how much of it is left depends on the clock.
    const wait = await limiter.tryAcquire();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1050);
  });

  it('refuses nonsense options', () => {
    expect(() => new RedisRateLimiter(workerA, { key: 'k', ratePerSecond: 0 })).toThrow();
    expect(() => new RedisRateLimiter(workerA, { key: '', ratePerSecond: 1 })).toThrow();
    expect(() => new InProcessRateLimiter({ ratePerSecond: 1, burst: 0 })).toThrow();
  });
});

describe('InProcessRateLimiter', () => {
  it('paces one process the same way: 12 starts at 10/s take ≥ 1.1 s, never more than 10 in a second', async () => {
    const limiter = new InProcessRateLimiter({ ratePerSecond: 10 });
    const started = performance.now();
    const times = await acquireAll([limiter], 12);
    expect(times.at(-1)! - started).toBeGreaterThanOrEqual(1100);
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(10);
  });

  it('pauseFor holds every start until the pause is over', async () => {
    const limiter = new InProcessRateLimiter({ ratePerSecond: 100, burst: 5 });
    const started = performance.now();
    await limiter.pauseFor(300);
    await limiter.acquire();
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('rejects at once with an already-aborted signal', async () => {
    const limiter = new InProcessRateLimiter({ ratePerSecond: 1 });
    await expect(limiter.acquire(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});

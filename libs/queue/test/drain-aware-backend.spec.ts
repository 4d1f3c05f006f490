import { randomUUID } from 'node:crypto';
import { createRedisBackend, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { drainAwareBackend, drainAwareScript } from '../src/drain-aware-backend';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Redis commands sent by the clients made here, by name (a Lua script by the first word of its key, e.g. the queue). */
const sent = new Map<string, number>();
const counted = new WeakSet<Redis>();
type SendCommand = (this: Redis, command: { name: string }, ...rest: unknown[]) => unknown;
const proto = Redis.prototype as unknown as { sendCommand: SendCommand };
const original = proto.sendCommand;

function connection(): Redis {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  counted.add(redis);
  return redis;
}

/**
 * A worker with BullMQ's stock fetch or the drain-aware one (docs/decisions/0144). A long drain delay: a wake-up the
 * fetch missed would show as a job waiting that long, not as a short pause.
 */
function worker(prefix: string, drainAware: boolean, process: (job: Job) => Promise<unknown>, concurrency = 8): Worker {
  return new Worker(
    'q',
    process,
    { connection: connection(), prefix, concurrency, drainDelay: 30 },
    drainAware ? drainAwareBackend : createRedisBackend,
  );
}

describe('the drain-aware worker backend (real Redis)', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  beforeAll(() => {
    proto.sendCommand = function (command, ...rest) {
      // Blocking connections are duplicates BullMQ makes: count every client of a counted one's host by name.
      if (counted.has(this) || (this.options.connectionName ?? '').includes(':')) {
        const name = command.name === 'evalsha' || command.name === 'eval' ? 'script' : command.name;
        sent.set(name, (sent.get(name) ?? 0) + 1);
      }
      return original.call(this, command, ...rest);
    };
  });
  afterAll(() => {
    proto.sendCommand = original;
  });
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  /** Runs `jobs` jobs one at a time (each added when the one before completed); Redis commands per job by name. */
  async function oneAtATime(drainAware: boolean, jobs: number): Promise<Record<string, number>> {
    const prefix = `drain-${randomUUID().slice(0, 8)}`;
    const queue = new Queue('q', { connection: connection(), prefix });
    let done = 0;
    let finished!: () => void;
    const all = new Promise<void>((resolve) => (finished = resolve));
    const w = worker(prefix, drainAware, async () => {
      done += 1;
      if (done === jobs) finished();
      return done;
    });
    cleanup.push(
      () => queue.close(),
      () => queue.obliterate({ force: true }),
      () => w.close(),
    );
    await w.waitUntilReady();
    await queue.waitUntilReady();
    w.on('completed', () => {
      if (done < jobs) void queue.add('j', {}, { removeOnComplete: true });
    });
    // Settle into the blocking wait before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    sent.clear();
    await queue.add('j', {}, { removeOnComplete: true });
    await all;
    await new Promise((resolve) => setTimeout(resolve, 200));
    return Object.fromEntries([...sent].map(([name, n]) => [name, n / jobs]));
  }

  it('takes each job with the floor of Redis commands: add, BZPOPMIN, moveToActive, moveToFinished', async () => {
    const drainAware = await oneAtATime(true, 40);
    const stock = await oneAtATime(false, 40);
    // Three scripts per job (add, moveToActive, moveToFinished) and one BZPOPMIN, nothing else, exactly.
    expect(drainAware).toEqual({ script: 3, bzpopmin: 1 });
    // BullMQ's own fetch asks once more after each job (and pops the marker it re-added): more than the floor.
    expect((stock['script'] ?? 0) + (stock['bzpopmin'] ?? 0)).toBeGreaterThan(4.5);
  }, 60_000);

  it('misses no wake-up: bursts from another producer, several workers, each job taken once and soon', async () => {
    const prefix = `drain-${randomUUID().slice(0, 8)}`;
    const queue = new Queue('q', { connection: connection(), prefix });
    const taken = new Map<string, number>();
    const waited: number[] = [];
    const process = async (job: Job) => {
      taken.set(job.id!, (taken.get(job.id!) ?? 0) + 1);
      waited.push(Date.now() - job.timestamp);
      // Some jobs add one more while running, as a step enqueues the next: the worker is between its fetches then.
      if ((job.data as { spawn?: boolean }).spawn) await queue.add('j', {});
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    };
    const workers = [worker(prefix, true, process, 3), worker(prefix, true, process, 1)];
    cleanup.push(
      () => queue.close(),
      () => queue.obliterate({ force: true }),
      ...workers.map((w) => () => w.close()),
    );
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    let added = 0;
    for (let burst = 0; burst < 12; burst += 1) {
      const size = 1 + (burst % 4);
      await queue.addBulk(Array.from({ length: size }, (_, i) => ({ name: 'j', data: { spawn: i === 0 } })));
      added += size + 1;
      // Now and then let every worker drain and block before the next burst.
      await new Promise((resolve) => setTimeout(resolve, burst % 3 === 0 ? 150 : Math.random() * 10));
    }
    const deadline = Date.now() + 20_000;
    while (taken.size < added && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(taken.size).toBe(added);
    expect([...taken.values()].every((n) => n === 1)).toBe(true);
    // A missed wake-up waits out the 30 s drain delay; the machine's load alone is far below that.
    expect(Math.max(...waited)).toBeLessThan(10_000);
  }, 60_000);

  it('re-adds the wake-up marker when jobs still wait: an idle worker takes the second job while the first runs', async () => {
    const prefix = `drain-${randomUUID().slice(0, 8)}`;
    const queue = new Queue('q', { connection: connection(), prefix });
    const started: number[] = [];
    const process = async () => {
      started.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    };
    // Concurrency 1 each: the worker that takes the first job cannot fetch the second itself.
    const workers = [worker(prefix, true, process, 1), worker(prefix, true, process, 1)];
    cleanup.push(
      () => queue.close(),
      () => queue.obliterate({ force: true }),
      ...workers.map((w) => () => w.close()),
    );
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Both jobs wait under one marker (resume writes one): only the script's re-add can wake the second worker.
    await queue.pause();
    await queue.addBulk([
      { name: 'j', data: {} },
      { name: 'j', data: {} },
    ]);
    await queue.resume();
    const deadline = Date.now() + 20_000;
    while (started.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toHaveLength(2);
    expect(started[1]! - started[0]!).toBeLessThan(1_000);
  }, 60_000);

  it('a delayed job added after a job emptied the queue runs when due, not after the drain delay', async () => {
    const prefix = `drain-${randomUUID().slice(0, 8)}`;
    const queue = new Queue('q', { connection: connection(), prefix });
    const ran: Array<{ name: string; at: number }> = [];
    const w = worker(prefix, true, async (job: Job) => {
      ran.push({ name: job.name, at: Date.now() });
      if (job.name === 'first') await queue.add('later', {}, { delay: 300 });
    });
    cleanup.push(
      () => queue.close(),
      () => queue.obliterate({ force: true }),
      () => w.close(),
    );
    await w.waitUntilReady();
    const start = Date.now();
    await queue.add('first', {});
    const deadline = Date.now() + 20_000;
    while (ran.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran.map((r) => r.name)).toEqual(['first', 'later']);
    expect(ran[1]!.at - start).toBeGreaterThanOrEqual(300);
    expect(ran[1]!.at - start).toBeLessThan(10_000);
  }, 60_000);

  it("fails loudly if BullMQ's scripts no longer have the anchor the variants replace", () => {
    for (const command of ['moveToActive', 'moveToFinished'] as const) {
      const text = drainAwareScript(command);
      expect(text).toContain('local stillWaiting = rcall("LLEN", KEYS[1]) > 0 or rcall("ZCARD", KEYS[3]) > 0');
      expect(text).not.toContain('return {rcall("HGETALL", jobKey), jobId, 0, 0} -- get job data');
    }
  });
});

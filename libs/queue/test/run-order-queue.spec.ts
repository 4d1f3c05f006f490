import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { StepJob } from '@dossier/contracts';
import { CYCLE_MS, runPriority } from '../src/run-order';
import { StepQueues } from '../src/step-queues';
import { REDIS_URL, testQueueOptions } from './queue-fixture';

/**
 * Decision 0159 on a real queue: a worker taking one job at a time serves the steps of the oldest run first, whatever
 * order they were added in, and a job that does not say when its run was created before them all; runs created in the
 * same millisecond one after the other, not in lockstep (0161).
 */
describe('step jobs are served oldest run first (real Redis, BullMQ worker)', () => {
  const options = testQueueOptions('order');
  const { prefix } = options;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const workerRedis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queues = new StepQueues(options, redis);

  afterAll(async () => {
    await queues.queue('extractor').obliterate({ force: true });
    await queues.onApplicationShutdown();
    redis.disconnect();
    workerRedis.disconnect();
  });

  const extract = (runId: string, shard: number, runCreatedAt?: number): StepJob => ({
    tenantId: '00000000-0000-4000-8000-000000000001',
    runId,
    node: 'extract',
    iteration: 0,
    shard,
    ...(runCreatedAt === undefined ? {} : { runCreatedAt }),
  });

  /** Serves `count` jobs with one worker taking one at a time: each as `name(runId).shard`, in the order served. */
  async function serve(count: number, name: (runId: string) => string): Promise<string[]> {
    const served: string[] = [];
    await new Promise<void>((resolve) => {
      const worker = new Worker(
        'extractor',
        async (job) => {
          const data = job.data as StepJob;
          // The creation time became the priority; the queued data is what a worker of the previous version reads.
          expect(Object.keys(data).sort()).toEqual(['iteration', 'node', 'runId', 'shard', 'tenantId']);
          served.push(`${name(data.runId)}.${data.shard}`);
          if (served.length === count) void worker.close().then(resolve);
        },
        { connection: workerRedis, prefix, concurrency: 1 },
      );
    });
    return served;
  }

  it('takes the older run’s steps first, then the newer run’s in the order they were added', async () => {
    const now = Date.now();
    const [older, newer, unknown] = [randomUUID(), randomUUID(), randomUUID()];
    // The newer run's shards are added first, as when its fan-out was decided before the older run's next step.
    await queues.enqueueMany([extract(newer, 0, now - 1_000), extract(newer, 1, now - 1_000)]);
    await queues.enqueueMany([extract(older, 0, now - 60_000), extract(older, 1, now - 60_000)]);
    await queues.enqueue(extract(unknown, 0));
    expect(await queues.state({ runId: older, node: 'extract', iteration: 0, shard: 0 })).toBe('prioritized');

    const served = await serve(5, (runId) => (runId === older ? 'older' : runId === newer ? 'newer' : 'unknown'));
    expect(served).toEqual(['unknown.0', 'older.0', 'older.1', 'newer.0', 'newer.1']);
  });

  it('runs created in the same millisecond are served one after the other, not their shards in turn', async () => {
    // Five seconds ago, or the start of the priorities' cycle if it began since (both runs in one cycle either way).
    const now = Date.now();
    const created = Math.max(now - 5_000, now - (now % CYCLE_MS));
    const a = randomUUID();
    // Two ids that hash apart (one pair in 128 shares a priority, and is served in the order added).
    const b = Array.from({ length: 50 }, () => randomUUID()).find((id) => runPriority(id, created) !== runPriority(a, created));
    if (!b) throw new Error('fifty run ids of one millisecond all share one priority');
    const [first, second] = runPriority(a, created)! < runPriority(b, created)! ? [a, b] : [b, a];
    // Added in turn, as two fan-outs decided at the same moment are.
    for (let shard = 0; shard < 3; shard++) await queues.enqueueMany([extract(second, shard, created), extract(first, shard, created)]);
    const served = await serve(6, (runId) => (runId === first ? 'first' : 'second'));
    expect(served).toEqual(['first.0', 'first.1', 'first.2', 'second.0', 'second.1', 'second.2']);
  });
});

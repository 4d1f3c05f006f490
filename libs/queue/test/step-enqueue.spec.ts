import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { stepKey, type StepJob } from '@dossier/contracts';
import { InvalidStepPayloadError } from '@dossier/errors';
import { runPriority } from '../src/run-order';
import { StepQueues } from '../src/step-queues';
import { REDIS_URL, testQueueOptions } from './queue-fixture';

/**
 * `StepQueues.enqueueMany` on a real Redis: a queue's one job is added alone and several with addBulk (0163), and both
 * paths give a job the same id, priority, attempts and backoff; the same step twice is one job; a malformed job stops
 * the whole call before anything is sent.
 */
describe('enqueueing steps (real Redis)', () => {
  const options = testQueueOptions('enqueue', { attempts: 3, backoffMs: 250 });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queues = new StepQueues(options, redis);
  const tenantId = '00000000-0000-4000-8000-000000000001';

  afterAll(async () => {
    await Promise.all(['extractor', 'claims', 'planner'].map((s) => queues.queue(s as 'claims').obliterate({ force: true })));
    await queues.onApplicationShutdown();
    redis.disconnect();
  });

  // A fan-out node's shard is any index, another node's is 0: the union the job type spells out, built here for both.
  const step = (runId: string, node: StepJob['node'], shard = 0, runCreatedAt?: number): StepJob =>
    ({
      tenantId,
      runId,
      node,
      iteration: 0,
      shard,
      ...(runCreatedAt === undefined ? {} : { runCreatedAt }),
    }) as StepJob;

  /** What the queue holds of a step's job: the options the engine relies on. */
  async function stored(job: StepJob, service: 'extractor' | 'claims' | 'planner') {
    const found = await queues.queue(service).getJob(stepKey(job));
    if (!found) return undefined;
    return {
      id: found.id,
      name: found.name,
      data: found.data as unknown,
      priority: found.opts.priority,
      attempts: found.opts.attempts,
      backoff: found.opts.backoff,
    };
  }

  it('a queue’s one job and a queue’s several jobs carry the same options', async () => {
    const createdAt = Date.now() - 5_000;
    const runId = randomUUID();
    const alone = step(runId, 'claims', 0, createdAt);
    const shards = [0, 1, 2].map((s) => step(runId, 'extract', s, createdAt));
    // One call, two queues: the claims queue gets one job (added alone), the extractor queue three (addBulk).
    await queues.enqueueMany([alone, ...shards]);
    const priority = runPriority(runId, createdAt, Date.now());
    const expected = (job: StepJob) => {
      const { runCreatedAt: _dropped, ...data } = job;
      return { id: stepKey(job), name: job.node, data, priority, attempts: 3, backoff: { type: 'classified', delay: 250 } };
    };
    expect(await stored(alone, 'claims')).toEqual(expected(alone));
    for (const shard of shards) expect(await stored(shard, 'extractor')).toEqual(expected(shard));
  });

  it('the same step enqueued twice, alone or in a batch, is one job', async () => {
    const runId = randomUUID();
    const job = step(runId, 'scope');
    await queues.enqueue(job);
    await queues.enqueue(job);
    await queues.enqueueMany([job, step(runId, 'perspectives')]);
    const keys = (await queues.queue('planner').getJobs(['waiting', 'prioritized'])).map((j) => j.id).filter((id) => id?.startsWith(runId));
    expect(keys.sort()).toEqual([stepKey(job), stepKey(step(runId, 'perspectives'))].sort());
  });

  it('a malformed job in a call sends none of its jobs', async () => {
    const runId = randomUUID();
    const good = step(runId, 'claims');
    // A negative shard: what a caller's bug or a tampered row could hand it, typed as a job so the check is the run-time one.
    const bad = { ...step(runId, 'extract'), shard: -1 } as unknown as StepJob;
    await expect(queues.enqueueMany([good, bad])).rejects.toBeInstanceOf(InvalidStepPayloadError);
    expect(await stored(good, 'claims')).toBeUndefined();
  });
});

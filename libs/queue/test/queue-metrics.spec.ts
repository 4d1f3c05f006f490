import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { register } from 'prom-client';
import { SERVICE_NAMES } from '@dossier/contracts';
import { recordStepDelivery } from '@dossier/telemetry';
import { StepQueues } from '../src/step-queues';
import type { QueueOptions } from '../src/queue-options';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

function options(prefix: string, consume: QueueOptions['consume']): QueueOptions {
  return {
    redisUrl: REDIS_URL,
    prefix,
    consume,
    concurrency: 1,
    lockDurationMs: 2000,
    stalledIntervalMs: 1000,
    attempts: 3,
    backoffMs: 100,
  };
}

/** A sample's value from the text exposition, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('queue depth metrics (real Redis)', () => {
  const prefix = `t-qm-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  let queues: StepQueues | undefined;
  const raw = new Queue('planner', { connection: { url: REDIS_URL }, prefix });

  afterAll(async () => {
    await raw.obliterate({ force: true });
    await raw.close();
    await queues?.onApplicationShutdown();
  });

  it('counts jobs per state, and the backlog autoscaling reads is waiting + prioritized + delayed', async () => {
    queues = new StepQueues(options(prefix, []), new Redis(REDIS_URL, { maxRetriesPerRequest: null }));
    await queues.onModuleInit();
    await raw.add('scope', { n: 1 });
    await raw.add('scope', { n: 2 }, { priority: 5 });
    await raw.add('scope', { n: 3 }, { priority: 1 });
    await raw.add('scope', { n: 4 }, { delay: 60_000 });

    const text = await register.metrics();
    expect(sample(text, 'dossier_queue_jobs{queue="planner",state="waiting"}')).toBe(1);
    expect(sample(text, 'dossier_queue_jobs{queue="planner",state="prioritized"}')).toBe(2);
    expect(sample(text, 'dossier_queue_jobs{queue="planner",state="delayed"}')).toBe(1);
    expect(sample(text, 'dossier_queue_jobs{queue="planner",state="active"}')).toBe(0);
    // The bare wait list would say 1; the backlog is 4.
    expect(sample(text, 'dossier_queue_backlog{queue="planner"}')).toBe(4);
    // A producer-only process (no queue of its own) reports every queue.
    for (const s of SERVICE_NAMES) expect(sample(text, `dossier_queue_backlog{queue="${s}"}`)).toBeDefined();
  });

  it("stops reporting a process's queues after it shuts down", async () => {
    await queues!.onApplicationShutdown();
    queues = undefined;
    const text = await register.metrics();
    expect(sample(text, 'dossier_queue_backlog{queue="planner"}')).toBeUndefined();
  });

  it('step deliveries: duration by node and outcome, retries and final failures counted', async () => {
    recordStepDelivery('extract', 'completed', 0.2);
    recordStepDelivery('extract', 'retry', 0.1);
    recordStepDelivery('extract', 'failed', 0.1);
    const text = await register.metrics();
    expect(sample(text, 'dossier_step_duration_seconds_count{node="extract",outcome="completed"}')).toBe(1);
    expect(sample(text, 'dossier_step_retries_total{node="extract"}')).toBe(1);
    expect(sample(text, 'dossier_step_failures_total{node="extract"}')).toBe(1);
  });
});

import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createLogger, registerQueueDepthSource, type QueueCounts } from '@dossier/telemetry';
import { warnUnlessNoEviction } from './redis-connection';
import { Queue, type JobState } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  NODES,
  SERVICE_NAMES,
  stepKey,
  type CoreNodeRows,
  type NodeTable,
  type ServiceName,
  type StepJob,
  type StepRef,
} from '@dossier/contracts';
import { InvalidStepPayloadError } from '@dossier/errors';
import { QUEUE_OPTIONS, RETENTION, type QueueOptions } from './queue-options';
import { runPriority } from './run-order';
import { REDIS } from './tokens';

export type StepJobState = JobState | 'unknown';

/**
 * The only way a step is put on a queue. It accepts the step-job union alone (checked again at run time,
 * so an unknown node or a malformed payload never reaches Redis) and uses the step key as the job id, so
 * enqueueing the same step twice is a no-op while the job exists.
 */
@Injectable()
export class StepQueues implements OnModuleInit, OnApplicationShutdown {
  private readonly queues = new Map<ServiceName, Queue>();
  private unregisterDepths?: () => void;
  private readonly nodes: NodeTable<CoreNodeRows>;

  constructor(
    @Inject(QUEUE_OPTIONS) private readonly options: QueueOptions,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.nodes = options.nodes ?? NODES;
  }

  queue(service: ServiceName): Queue {
    let q = this.queues.get(service);
    if (!q) {
      q = new Queue(service, { connection: this.redis, prefix: this.options.prefix });
      this.queues.set(service, q);
    }
    return q;
  }

  async onModuleInit(): Promise<void> {
    await warnUnlessNoEviction(this.redis, createLogger('queue'));
    this.unregisterDepths = registerQueueDepthSource(() => this.depths());
  }

  /** Counts per state of the queues this process works on (all of them in producer-only processes). */
  async depths(): Promise<Map<string, QueueCounts>> {
    const services = this.options.consume.length > 0 ? this.options.consume : SERVICE_NAMES;
    const counts = await Promise.all(
      services.map((s) =>
        this.queue(s).getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'waiting-children', 'failed', 'completed'),
      ),
    );
    return new Map(services.map((s, i) => [s, counts[i]!]));
  }

  async enqueue(job: StepJob): Promise<void> {
    await this.enqueueMany([job]);
  }

  /**
   * Enqueues steps with one round trip per queue (BullMQ addBulk: one MULTI), so the shards of a fan-out are
   * waiting together instead of one Redis round trip apart. Every job is checked before any is sent.
   */
  async enqueueMany(jobs: readonly StepJob[]): Promise<void> {
    const byQueue = new Map<ServiceName, StepJob[]>();
    for (const job of jobs) {
      const parsed = this.nodes.stepJob.safeParse(job);
      if (!parsed.success) {
        throw new InvalidStepPayloadError(
          `Refusing to enqueue an invalid step job: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')}`,
          {
            runId: typeof (job as { runId?: unknown }).runId === 'string' ? (job as { runId: string }).runId : undefined,
          },
        );
      }
      const service = this.nodes.service[parsed.data.node];
      byQueue.set(service, [...(byQueue.get(service) ?? []), parsed.data]);
    }
    for (const [service, group] of byQueue) {
      const now = Date.now();
      const bulk = group.map(({ runCreatedAt, ...data }) => ({
        name: data.node,
        // The run's creation time rides as the job's priority, not in its data: a worker of the previous version,
        // still running during a roll, parses job data strictly and would refuse the key (decision 0159).
        data,
        opts: {
          jobId: stepKey(data),
          ...priorityOpt(runPriority(data.runId, runCreatedAt, now)),
          attempts: this.options.attempts,
          backoff: { type: 'classified', delay: this.options.backoffMs },
          ...RETENTION,
        },
      }));
      // Most steps decide one step: added alone, without the MULTI that addBulk wraps around its jobs (0163).
      const [only] = bulk;
      if (bulk.length === 1 && only) await this.queue(service).add(only.name, only.data, only.opts);
      else await this.queue(service).addBulk(bulk);
    }
  }

  async state(step: StepRef): Promise<StepJobState> {
    return this.queue(this.nodes.service[step.node]).getJobState(stepKey(step));
  }

  /** Ids (step keys) of the jobs active in a service's queue. */
  activeIds(service: ServiceName): Promise<string[]> {
    return this.queue(service).getRanges(['active']);
  }

  /** The token of a job's BullMQ lock ("<worker id>:<n>"): whose delivery it is; null when unlocked. */
  lockOf(service: ServiceName, jobId: string): Promise<string | null> {
    return this.redis.get(`${this.queue(service).toKey(jobId)}:lock`);
  }

  /**
   * Drops an active job's BullMQ lock if it still has this token, so the next stalled check of any worker moves
   * the job back to waiting. Only for a delivery whose worker is gone (the conductor's stall watch, 0027).
   */
  async dropLock(service: ServiceName, jobId: string, token: string): Promise<boolean> {
    const dropped = await this.redis.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
      1,
      `${this.queue(service).toKey(jobId)}:lock`,
      token,
    );
    return dropped === 1;
  }

  /** Removes a finished job so the same step key can be enqueued again (resume, reconciliation). */
  async removeFinished(step: StepRef): Promise<void> {
    const job = await this.queue(this.nodes.service[step.node]).getJob(stepKey(step));
    if (job && ((await job.isCompleted()) || (await job.isFailed()))) await job.remove();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unregisterDepths?.();
    // The transport closed the workers before the modules: nothing is active on these queues any more.
    if (this.options.ownQueues && this.options.consume.length > 0) {
      await Promise.all(
        SERVICE_NAMES.map((s) =>
          this.queue(s)
            .obliterate({ force: true })
            .catch((err: unknown) => createLogger('queue').warn({ err: (err as Error).message, queue: s }, 'could not remove own queue')),
        ),
      );
    }
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    // The shared connection is ours (queues only borrow it): close it last.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** BullMQ's `priority` option, absent for a job that has none (`runPriority`). */
function priorityOpt(priority: number | undefined): { priority?: number } {
  return priority === undefined ? {} : { priority };
}

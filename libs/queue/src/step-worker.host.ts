import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ModuleRef, Reflector } from '@nestjs/core';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NodeName } from '@dossier/contracts';
import { classifyError } from '@dossier/errors';
import { createLogger, recordStepDelivery } from '@dossier/telemetry';
import { buildHandlerRegistry, type FoundHandler } from './handler-registry';
import { STEP_HANDLER_METADATA } from './step-handler-metadata';
import { QUEUE_OPTIONS, type QueueOptions } from './queue-options';
import { createRedis } from './redis-connection';
import { STEP_PROCESSOR, type StepProcessor } from './step-processor';
import { WORKER_LIVENESS, type WorkerLiveness } from './worker-liveness';

const MAX_BACKOFF_MS = 60_000;

/**
 * Hosts one BullMQ worker per consumed service queue. At boot it discovers the `@OnStep` handlers and
 * refuses to start unless each owned node has exactly one; it then hands every job to the step runner.
 * On shutdown it stops taking jobs and waits for the in-flight ones (bounded by the grace period; a step
 * still running then is released to another worker by the stall check).
 */
@Injectable()
export class StepWorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly logger = createLogger('queue');
  private handlers = new Map<NodeName, object>();
  private processor!: StepProcessor;

  constructor(
    @Inject(QUEUE_OPTIONS) private readonly options: QueueOptions,
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.consume.length === 0) return;
    // Resolved here, not injected: the step runner lives in the workflow module, which imports this one.
    this.processor = this.moduleRef.get<StepProcessor>(STEP_PROCESSOR, { strict: false });
    const found: FoundHandler[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const node = this.reflector.get<NodeName | undefined>(STEP_HANDLER_METADATA, metatype);
      if (node) found.push({ node, className: metatype.name, instance: instance as object });
    }
    this.handlers = buildHandlerRegistry(this.options.consume, found, this.options.nodes);
    for (const service of this.options.consume) this.workers.push(this.createWorker(service));
    // Liveness first, jobs second: a worker never holds a job while the conductor could think it dead.
    const liveness = this.moduleRef.get<WorkerLiveness>(WORKER_LIVENESS, { strict: false });
    await liveness.hold(this.workers.map((w) => w.id));
    for (const worker of this.workers) {
      worker.run().catch((err: unknown) => this.logger.error({ err: (err as Error).message, queue: worker.name }, 'worker stopped'));
    }
  }

  private createWorker(service: string): Worker {
    const connection = createRedis(this.options.redisUrl, `dossier-worker-${service}`);
    this.connections.push(connection);
    const worker = new Worker(service, (job: Job, token?: string) => this.run(job, token), {
      connection,
      prefix: this.options.prefix,
      autorun: false,
      concurrency: this.options.concurrency,
      lockDuration: this.options.lockDurationMs,
      stalledInterval: this.options.stalledIntervalMs,
      maxStalledCount: 3,
      settings: {
        // Our classification decides retries: an unrecoverable error is never retried, and keeps its class.
        backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) => {
          if (err && classifyError(err) === 'unrecoverable') return -1;
          const base = Math.min(MAX_BACKOFF_MS, this.options.backoffMs * 2 ** Math.max(0, attemptsMade - 1));
          return Math.round(base * (0.8 + Math.random() * 0.4));
        },
      },
    });
    worker.on('error', (err) => this.logger.error({ err: err.message, service }, 'worker error'));
    return worker;
  }

  private async run(job: Job, token: string | undefined): Promise<unknown> {
    const started = performance.now();
    const attempt = job.attemptsMade + 1;
    const maxAttempts = job.opts.attempts ?? 1;
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      const result = await this.processor.process(job.data, this.handlers, {
        attempt,
        maxAttempts,
        postpone: async (ms: number) => {
          await job.moveToDelayed(Date.now() + ms, token);
          return new DelayedError();
        },
      });
      const skipped = (result as { status?: unknown } | undefined)?.status === 'skipped';
      recordStepDelivery(job.name, skipped ? 'skipped' : 'completed', seconds());
      return result;
    } catch (err) {
      if (err instanceof DelayedError) recordStepDelivery(job.name, 'postponed', seconds());
      else recordStepDelivery(job.name, classifyError(err) === 'unrecoverable' || attempt >= maxAttempts ? 'failed' : 'retry', seconds());
      throw err;
    }
  }

  /** For tests and health: the workers are up and consuming. */
  get running(): boolean {
    return this.workers.length > 0 && this.workers.every((w) => w.isRunning());
  }

  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(this.connections.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  }
}

import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { lastValueFrom } from 'rxjs';
import type { NodeName } from '@dossier/contracts';
import { classifyError } from '@dossier/errors';
import { createLogger, recordStepDelivery } from '@dossier/telemetry';
import { buildHandlerRegistry, type FoundHandler } from './handler-registry';
import { QUEUE_OPTIONS, type QueueOptions } from './queue-options';
import { drainAwareBackend } from './drain-aware-backend';
import { createRedis } from './redis-connection';
import { STEP_HANDLER_EXTRAS, type StepHandlerExtras } from './step-handler-metadata';
import { STEP_PROCESSOR, type JobControl, type StepProcessor } from './step-processor';
import { StepRpcContext } from './step-rpc-context';
import { StepTransports } from './step-transports';
import { WORKER_LIVENESS, type WorkerLiveness } from './worker-liveness';

const MAX_BACKOFF_MS = 60_000;

/** How the transport reaches the providers of the app it serves (resolved when it starts listening). */
export type ResolveProvider = <T>(token: symbol | (abstract new (...args: never[]) => T)) => T;

type WorkerEvents = { error: (err: Error) => void };

/**
 * The BullMQ transport of a step service (a Nest custom transport strategy, docs/decisions/0035). Nest registers
 * every `@OnStep` handler's message pattern (the node name) here; on `listen` the transport checks that each node of
 * the consumed services has exactly one handler (else boot fails, naming it), holds the worker liveness locks
 * (0027), and runs one BullMQ worker per consumed queue. A job is dispatched by its name (the node) to that node's
 * handler, through Nest's pipeline: the span interceptor, the job pipe, the step runner, the error filter.
 * `app.close()` closes this first: workers stop taking jobs and finish the in-flight ones, then the modules close.
 */
export class BullMqServer extends Server<WorkerEvents> implements CustomTransportStrategy {
  override readonly transportId = Symbol('BULLMQ');
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly found: FoundHandler[] = [];
  private readonly log = createLogger('queue');
  private resolve?: ResolveProvider;
  private processor?: StepProcessor;
  /**
   * Each node's handler, looked up once: Nest's `getHandlerByPattern` tries `JSON.parse` on the pattern first, which
   * throws for a node name on every job (docs/decisions/0121). Filled after `listen`, when every handler is added.
   */
  private readonly byNode = new Map<string, MessageHandler>();

  /** Called once the app exists (its providers are what the transport needs), before `listen`. */
  bindTo(resolve: ResolveProvider): this {
    this.resolve = resolve;
    return this;
  }

  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    const step = extras[STEP_HANDLER_EXTRAS] as StepHandlerExtras | undefined;
    // Nest keeps one handler per pattern (a second replaces the first): record every one, so the boot check sees duplicates.
    if (step) this.found.push({ node: pattern as NodeName, className: step.target.name, instance: step.target.prototype as object });
    super.addHandler(pattern, callback, isEventHandler, extras);
  }

  async listen(callback: (...optionalParams: unknown[]) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (err) {
      callback(err);
    }
  }

  private async start(): Promise<void> {
    if (!this.resolve) throw new Error('BullMqServer.bindTo(app) must be called before listen');
    const options = this.resolve<QueueOptions>(QUEUE_OPTIONS);
    if (options.consume.length === 0) return;
    this.processor = this.resolve<StepProcessor>(STEP_PROCESSOR);
    this.resolve(StepTransports).add(this);
    buildHandlerRegistry(options.consume, this.found, options.nodes);
    for (const service of options.consume) this.workers.push(this.createWorker(service, options));
    // Liveness first, jobs second: a worker never holds a job while the conductor could think it dead.
    await this.resolve<WorkerLiveness>(WORKER_LIVENESS).hold(this.workers.map((w) => w.id));
    for (const worker of this.workers) {
      worker.run().catch((err: unknown) => this.log.error({ err: (err as Error).message, queue: worker.name }, 'worker stopped'));
    }
    this.log.info({ queues: options.consume, prefix: options.prefix, concurrency: options.concurrency }, 'workers started');
  }

  private createWorker(service: string, options: QueueOptions): Worker {
    const connection = createRedis(options.redisUrl, `dossier-worker-${service}`);
    this.connections.push(connection);
    const worker = new Worker(
      service,
      (job: Job, token?: string) => this.handleJob(job, token),
      {
        connection,
        prefix: options.prefix,
        autorun: false,
        concurrency: options.concurrency,
        lockDuration: options.lockDurationMs,
        stalledInterval: options.stalledIntervalMs,
        maxStalledCount: 3,
        settings: {
          // Our classification decides retries: an unrecoverable error is never retried, and keeps its class.
          backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) => {
            if (err && classifyError(err) === 'unrecoverable') return -1;
            const base = Math.min(MAX_BACKOFF_MS, options.backoffMs * 2 ** Math.max(0, attemptsMade - 1));
            return Math.round(base * (0.8 + Math.random() * 0.4));
          },
        },
      },
      // The fetch skips BullMQ's empty asks and stale wake-ups after a job (docs/decisions/0144).
      drainAwareBackend,
    );
    worker.on('error', (err) => this.log.error({ err: err.message, service }, 'worker error'));
    return worker;
  }

  private async handleJob(job: Job, token: string | undefined): Promise<unknown> {
    const started = performance.now();
    const control: JobControl = {
      attempt: job.attemptsMade + 1,
      maxAttempts: job.opts.attempts ?? 1,
      postpone: async (ms: number) => {
        await job.moveToDelayed(Date.now() + ms, token);
        return new DelayedError();
      },
    };
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      const result = await this.dispatch(job, control);
      const skipped = (result as { status?: unknown } | undefined)?.status === 'skipped';
      recordStepDelivery(job.name, skipped ? 'skipped' : 'completed', seconds());
      return result;
    } catch (err) {
      if (err instanceof DelayedError) recordStepDelivery(job.name, 'postponed', seconds());
      else
        recordStepDelivery(
          job.name,
          classifyError(err) === 'unrecoverable' || control.attempt >= control.maxAttempts ? 'failed' : 'retry',
          seconds(),
        );
      throw err;
    }
  }

  /** The job's node picks the handler; its pipeline's result (or error, with its class kept by the step filter) is the job's. */
  private async dispatch(job: Job, control: JobControl): Promise<unknown> {
    const processor = this.processor;
    if (!processor) throw new Error('a job arrived before the transport was started');
    // Only found handlers are kept (node names: a bounded set), so unknown job names cannot grow the map.
    let handler = this.byNode.get(job.name) ?? null;
    if (!handler) {
      handler = this.getHandlerByPattern(job.name);
      if (handler) this.byNode.set(job.name, handler);
    }
    if (!handler) throw await processor.reject(job.data, `no handler for node "${job.name}" in this process`);
    const result$ = this.transformToObservable(await handler(job.data, new StepRpcContext([job, control, processor])));
    return lastValueFrom(result$, { defaultValue: undefined });
  }

  /** For readiness: the workers are up and consuming. */
  get running(): boolean {
    return this.workers.length > 0 && this.workers.every((w) => w.isRunning());
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(this.connections.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  }

  on<K extends keyof WorkerEvents>(event: K, callback: WorkerEvents[K]): void {
    for (const worker of this.workers) worker.on(event, callback);
  }

  unwrap<T>(): T {
    return this.workers as T;
  }
}

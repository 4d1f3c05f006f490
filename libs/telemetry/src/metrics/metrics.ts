import { Counter, Gauge, Histogram, register, type Metric } from 'prom-client';

/**
 * Every Prometheus metric of Dossier, on prom-client's default registry (the gateway serves the same
 * registry at its /metrics, the workers at theirs). Names are documented in docs/operations.md.
 */

/** The metric of this name on the default registry, made once (several apps may share one process, as in tests). */
export function singleMetric<M extends Metric>(name: string, make: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? make();
}

/** Jobs per queue and BullMQ state, read from Redis at scrape time. */
export const queueJobs = singleMetric(
  'dossier_queue_jobs',
  () =>
    new Gauge({
      name: 'dossier_queue_jobs',
      help: 'Jobs in a step queue by BullMQ state (read from Redis at scrape time)',
      labelNames: ['queue', 'state'] as const,
      async collect() {
        const depths = await depthSnapshot();
        this.reset();
        for (const [queue, counts] of depths) for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
      },
    }),
);

/**
 * Work not yet started: waiting + prioritized + delayed. This is what autoscaling reads; the bare
 * `wait` list misses prioritized jobs and jobs postponed by a busy lock or a retry backoff.
 */
export const queueBacklog = singleMetric(
  'dossier_queue_backlog',
  () =>
    new Gauge({
      name: 'dossier_queue_backlog',
      help: 'Jobs waiting to start in a step queue: waiting + prioritized + delayed',
      labelNames: ['queue'] as const,
      async collect() {
        const depths = await depthSnapshot();
        this.reset();
        for (const [queue, counts] of depths)
          this.set(
            { queue },
            BACKLOG_STATES.reduce((sum, s) => sum + (counts[s] ?? 0), 0),
          );
      },
    }),
);

export const stepDuration = singleMetric(
  'dossier_step_duration_seconds',
  () =>
    new Histogram({
      name: 'dossier_step_duration_seconds',
      help: 'Wall time of one step delivery, by node and outcome (completed, skipped, postponed, retry, failed)',
      labelNames: ['node', 'outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    }),
);

export const stepRetries = singleMetric(
  'dossier_step_retries_total',
  () =>
    new Counter({
      name: 'dossier_step_retries_total',
      help: 'Step deliveries that failed and will be retried',
      labelNames: ['node'] as const,
    }),
);

export const stepFailures = singleMetric(
  'dossier_step_failures_total',
  () =>
    new Counter({
      name: 'dossier_step_failures_total',
      help: 'Steps that failed for good (unrecoverable, or out of attempts)',
      labelNames: ['node'] as const,
    }),
);

export const llmTokens = singleMetric(
  'dossier_llm_tokens_total',
  () =>
    new Counter({
      name: 'dossier_llm_tokens_total',
      help: 'LLM tokens by direction (input, output) and model',
      labelNames: ['direction', 'model'] as const,
    }),
);

export const llmRequests = singleMetric(
  'dossier_llm_requests_total',
  () =>
    new Counter({
      name: 'dossier_llm_requests_total',
      help: 'Requests sent to a model endpoint (retries and repair requests included), by model and outcome',
      labelNames: ['model', 'outcome'] as const,
    }),
);

export const offlinePlays = singleMetric(
  'dossier_offline_plays_total',
  () =>
    new Counter({
      name: 'dossier_offline_plays_total',
      help: 'Agent role calls played by the offline engine (no request, no tokens), by role',
      labelNames: ['role'] as const,
    }),
);

export const llmCost = singleMetric(
  'dossier_llm_cost_usd_total',
  () =>
    new Counter({ name: 'dossier_llm_cost_usd_total', help: 'Estimated LLM cost in US dollars, by model', labelNames: ['model'] as const }),
);

/** Counts per BullMQ state for one queue (the shape of `Queue.getJobCounts`). */
export type QueueCounts = Record<string, number>;

/** Reads the counts of the queues a process knows about; registered by the queue library. */
export type QueueDepthSource = () => Promise<ReadonlyMap<string, QueueCounts>>;

const sources = new Set<QueueDepthSource>();

export const BACKLOG_STATES = ['waiting', 'prioritized', 'delayed'] as const;

/** Adds a source of queue depths for the scrape; returns the function that removes it (on shutdown). */
export function registerQueueDepthSource(source: QueueDepthSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

let pending: Promise<Map<string, QueueCounts>> | undefined;

/**
 * One read of every source per scrape, shared by both gauges (prom-client collects metrics concurrently),
 * so the backlog and the per-state counts come from the same moment.
 */
function depthSnapshot(): Promise<Map<string, QueueCounts>> {
  pending ??= (async () => {
    const merged = new Map<string, QueueCounts>();
    // A source that cannot reach Redis fails the scrape of these metrics (prom-client reports the error)
    // rather than publishing zeros that would scale workers down.
    for (const counts of await Promise.all([...sources].map((s) => s()))) {
      for (const [queue, c] of counts) merged.set(queue, c);
    }
    return merged;
  })().finally(() => setImmediate(() => (pending = undefined)));
  return pending;
}

/**
 * Records one model request's usage (called where llm_calls rows of model engines are written): a request, and the
 * provider's token and cost figures. The offline engine's plays are `recordOfflinePlay`, never tokens (decision 0040).
 */
export function recordLlmUsage(usage: { model: string; tokensIn: number; tokensOut: number; costUsd: number; outcome?: string }): void {
  llmRequests.inc({ model: usage.model, outcome: usage.outcome ?? 'ok' });
  if (usage.tokensIn > 0) llmTokens.inc({ direction: 'input', model: usage.model }, usage.tokensIn);
  if (usage.tokensOut > 0) llmTokens.inc({ direction: 'output', model: usage.model }, usage.tokensOut);
  if (usage.costUsd > 0) llmCost.inc({ model: usage.model }, usage.costUsd);
}

/** Records one role call played by the offline engine: counted apart from model requests. */
export function recordOfflinePlay(role: string): void {
  offlinePlays.inc({ role });
}

export type StepOutcomeLabel = 'completed' | 'skipped' | 'postponed' | 'retry' | 'failed';

/** Records one step delivery: its duration, and a retry or a final failure. */
export function recordStepDelivery(node: string, outcome: StepOutcomeLabel, seconds: number): void {
  stepDuration.observe({ node, outcome }, seconds);
  if (outcome === 'retry') stepRetries.inc({ node });
  if (outcome === 'failed') stepFailures.inc({ node });
}

export { register as metricsRegistry };

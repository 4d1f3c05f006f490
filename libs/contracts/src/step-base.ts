import { z } from 'zod';

/**
 * W3C trace context carried in job data so one run is one trace across services.
 * Optional: a job enqueued outside any span carries none.
 */
export const TraceCarrier = z.record(z.string(), z.string()).optional();

/**
 * The trace contexts of the shards a join waited for: its span links to each (one run stays one trace,
 * and the join shows every shard it gathered, not only the last one to finish).
 */
export const TraceLinks = z.array(z.record(z.string(), z.string())).max(10_000).optional();

/** The fields every step job carries besides its node and shard: ids only (state lives in Postgres). */
export const STEP_BASE = {
  tenantId: z.uuid(),
  runId: z.uuid(),
  iteration: z.int().min(0).max(10_000),
  trace: TraceCarrier,
  links: TraceLinks,
  /**
   * The run's place in the queues (ms since the epoch): when it was created, or later for a tenant's run started
   * while others of that tenant are in progress (research_runs.queue_at, docs/decisions/0162); the steps of older runs
   * first (0159). Written in the outbox's payload; `StepQueues` turns it into the BullMQ job's priority and
   * leaves it out of the queued data, which a worker of the previous version (strict) would refuse during a roll.
   * Absent on outbox rows written by an earlier version.
   */
  runCreatedAt: z.int().min(0).optional(),
};

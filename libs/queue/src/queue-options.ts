import type { CoreNodeRows, NodeTable, ServiceName } from '@dossier/contracts';

export interface QueueOptions {
  redisUrl: string;
  prefix: string;
  /** The services whose queues this process consumes (empty: produce only, e.g. the conductor). */
  consume: readonly ServiceName[];
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  attempts: number;
  backoffMs: number;
  /**
   * The queues belong to this process alone (a local `dossier` process's, docs/decisions/0075): a process that consumes
   * them removes them when it closes, since no other process ever will (what it left unfinished is re-enqueued from
   * Postgres by the process that resumes the run).
   */
  ownQueues?: boolean;
  /** The node table jobs are checked and routed with; the core table unless a test extends it. */
  nodes?: NodeTable<CoreNodeRows>;
}

export const QUEUE_OPTIONS = Symbol('QUEUE_OPTIONS');

/** Completed jobs are kept a day (bounded), failed ones a week, so Redis never grows without bound. */
export const RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
} as const;

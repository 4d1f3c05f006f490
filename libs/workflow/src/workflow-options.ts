export interface WorkflowOptions {
  databaseUrl: string;
  /**
   * How long a step's lease holds without renewal (docs/decisions/0070): as long as BullMQ's lock (STEP_LOCK_MS), the
   * other fallback for a worker whose Postgres session outlives it; renewed every third of it.
   */
  leaseMs: number;
  /** How long a step postpones itself when another worker holds it. */
  busyRetryMs: number;
  /** Interactive transaction limits for the completing transaction. */
  txTimeoutMs: number;
}

export const WORKFLOW_OPTIONS = Symbol('WORKFLOW_OPTIONS');

/** The `WorkflowGraphs` (node table and graph versions) the engine runs. */
export const WORKFLOW_GRAPHS = Symbol('WORKFLOW_GRAPHS');

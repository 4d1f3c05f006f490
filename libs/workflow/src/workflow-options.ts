import type { ModelEndpoint } from './hosting/model-endpoint';

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
  /** The local process this engine is part of (docs/decisions/0075); unset: the deployment. */
  host?: string;
  /** This process hosts workers, so it holds its host's liveness lock (HostLock). */
  holdsHost?: boolean;
  /** The model endpoint this process's workers are configured for (0076); null or unset: none. */
  modelEndpoint?: ModelEndpoint | null;
}

export const WORKFLOW_OPTIONS = Symbol('WORKFLOW_OPTIONS');

/** The `WorkflowGraphs` (node table and graph versions) the engine runs. */
export const WORKFLOW_GRAPHS = Symbol('WORKFLOW_GRAPHS');

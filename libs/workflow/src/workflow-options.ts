export interface WorkflowOptions {
  databaseUrl: string;
  lockPoolMax: number;
  /** How long a step postpones itself when another worker holds it. */
  busyRetryMs: number;
  /** Interactive transaction limits for the completing transaction. */
  txTimeoutMs: number;
}

export const WORKFLOW_OPTIONS = Symbol('WORKFLOW_OPTIONS');

/** The `WorkflowGraphs` (node table and graph versions) the engine runs. */
export const WORKFLOW_GRAPHS = Symbol('WORKFLOW_GRAPHS');

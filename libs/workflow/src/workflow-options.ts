export interface WorkflowOptions {
  databaseUrl: string;
  lockPoolMax: number;
  /** How long a step postpones itself when another worker holds it. */
  busyRetryMs: number;
  /** Interactive transaction limits for the completing transaction. */
  txTimeoutMs: number;
}

export const WORKFLOW_OPTIONS = Symbol('WORKFLOW_OPTIONS');

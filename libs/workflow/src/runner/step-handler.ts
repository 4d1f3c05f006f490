import type { CoreNodeRows, GateName, NodeName, NodeNameOf, NodeRows, ResultOf, RunOptions, StepJobFor } from '@dossier/contracts';
import type { Db, RunRow } from '@dossier/db';

/** The run a step belongs to, as the runner loaded it (not `RunView`, which is a run as clients see it). */
export interface StepRun {
  id: string;
  tenantId: string;
  question: string;
  options: RunOptions;
  workflowVersion: number;
  createdAt: Date;
  /** Set when the research loop stopped (the frame and render steps report it); null before. */
  stopReason: string | null;
  budgetExhausted: string | null;
  /** The embeddings fallback of this run (decision 0043), as stored; null when the run kept its endpoint. */
  embeddingsFallback: RunRow['embeddingsFallback'];
}

/** Who a step's calls are for: what `AgentRunner.run` and other per-step records take. */
export interface StepCallContext {
  readonly tenantId: string;
  readonly runId: string;
  readonly stepKey: string;
}

/** What the handler of node `N` of table `R` is given. Handlers of the core table use `StepContext<N>`. */
export interface TableStepContext<R extends NodeRows, N extends NodeNameOf<R>> {
  readonly job: StepJobFor<R, N>;
  readonly stepKey: string;
  /** 1 on the first attempt; a handler must be safe to run again until its step is committed. */
  readonly attempt: number;
  readonly run: StepRun;
  /** The run's tenant and id (`run.tenantId`, `run.id`). */
  readonly tenantId: string;
  readonly runId: string;
  /** `{ tenantId, runId, stepKey }`: the context of every agent call this step makes. */
  readonly call: StepCallContext;
  /**
   * Feedback of the latest rejection at the gate that sends work back to this node (or at `gate`, for a
   * node downstream of that one in the same revision), if this step is a revision.
   */
  rejectionFeedback(gate?: GateName): Promise<string | null>;
}

export interface TableStepOutcome<R extends NodeRows, N extends NodeNameOf<R>> {
  /** The facts the router reads (fan-out sizes, loop signals); validated against the node's result contract. */
  result: ResultOf<R, N>;
  /**
   * Writes the step's outputs. Runs inside the transaction that also marks the step completed, writes the
   * checkpoint and event and decides the next steps: either all of it is committed, or none of it.
   */
  write?: (tx: Db) => Promise<void>;
}

/** Implemented by the handler of one node, a provider marked with `@OnStep(node)`. */
export interface TableStepHandler<R extends NodeRows, N extends NodeNameOf<R>> {
  execute(ctx: TableStepContext<R, N>): Promise<TableStepOutcome<R, N>>;
}

export type StepContext<N extends NodeName = NodeName> = TableStepContext<CoreNodeRows, N>;
export type StepOutcome<N extends NodeName = NodeName> = TableStepOutcome<CoreNodeRows, N>;
/** `@OnStep('claims')` accepts only a class implementing `StepHandler<'claims'>`: its job and result types are the node's. */
export type StepHandler<N extends NodeName = NodeName> = TableStepHandler<CoreNodeRows, N>;

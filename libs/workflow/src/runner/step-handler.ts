import type { GateName, NodeName, NodeResultOf, RunOptions, StepJobOf } from '@dossier/contracts';
import type { Db } from '@dossier/db';

export interface RunView {
  id: string;
  tenantId: string;
  question: string;
  options: RunOptions;
  workflowVersion: number;
}

export interface StepContext<N extends NodeName = NodeName> {
  readonly job: StepJobOf<N>;
  readonly stepKey: string;
  /** 1 on the first attempt; a handler must be safe to run again until its step is committed. */
  readonly attempt: number;
  readonly run: RunView;
  /**
   * Feedback of the latest rejection at the gate that sends work back to this node (or at `gate`, for a
   * node downstream of that one in the same revision), if this step is a revision.
   */
  rejectionFeedback(gate?: GateName): Promise<string | null>;
}

export interface StepOutcome<N extends NodeName = NodeName> {
  /** The facts the router reads (fan-out sizes, loop signals); validated against the node's result contract. */
  result: NodeResultOf<N>;
  /**
   * Writes the step's outputs. Runs inside the transaction that also marks the step completed, writes the
   * checkpoint and event and decides the next steps: either all of it is committed, or none of it.
   */
  write?: (tx: Db) => Promise<void>;
}

/** Implemented by the handler of one node, a provider marked with `@OnStep(node)`. */
export interface StepHandler<N extends NodeName = NodeName> {
  execute(ctx: StepContext<N>): Promise<StepOutcome<N>>;
}

import type { StepJobFor } from './node-table';
import { NODES, NodeName, type CoreNodeRows } from './nodes';

export { TraceCarrier, TraceLinks } from './step-base';

/**
 * The step-job payload: ids only (state lives in Postgres), discriminated by node; derived from the node table.
 * Enqueue accepts nothing else, and every worker parses its jobs with it.
 */
export const StepJob = NODES.stepJob;
export type StepJob = StepJobFor<CoreNodeRows, NodeName>;
export type StepJobOf<N extends NodeName> = StepJobFor<CoreNodeRows, N>;

/** The part of a step that names it (no trace context). */
export type StepRef = Pick<StepJob, 'runId' | 'node' | 'iteration' | 'shard'>;

/**
 * `runId.node.iteration.shard`: the BullMQ jobId and the unique key of the node execution.
 * Dots, not colons: BullMQ forbids colons in custom job ids.
 */
export function stepKey(step: StepRef): string {
  return `${step.runId}.${step.node}.${step.iteration}.${step.shard}`;
}

export function parseStepKey(key: string): StepRef {
  const [runId, node, iteration, shard] = key.split('.');
  return { runId: runId ?? '', node: NodeName.parse(node), iteration: Number(iteration), shard: Number(shard) };
}

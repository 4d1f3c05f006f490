import { z } from 'zod';
import { NodeName } from './nodes';

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

const stepBase = {
  tenantId: z.uuid(),
  runId: z.uuid(),
  iteration: z.int().min(0).max(10_000),
  trace: TraceCarrier,
  links: TraceLinks,
};

/** Nodes that fan out: one step per shard, joined by the node that follows. */
export const FANOUT_NODES = ['retrieve', 'extract', 'draft', 'verify'] as const satisfies readonly NodeName[];
export type FanoutNode = (typeof FANOUT_NODES)[number];
export function isFanoutNode(node: NodeName): node is FanoutNode {
  return (FANOUT_NODES as readonly NodeName[]).includes(node);
}

function stepSchema<N extends NodeName>(node: N) {
  const sharded = (FANOUT_NODES as readonly NodeName[]).includes(node);
  return z.strictObject({
    ...stepBase,
    node: z.literal(node),
    // A single-step node always has shard 0: a different shard would be a second, different step key.
    shard: sharded ? z.int().min(0).max(100_000) : z.literal(0),
  });
}

/**
 * The step-job payload: ids only (state lives in Postgres), discriminated by node.
 * Enqueue accepts nothing else, and every worker parses its jobs with it.
 */
export const StepJob = z.discriminatedUnion('node', [
  stepSchema('scope'),
  stepSchema('perspectives'),
  stepSchema('questions'),
  stepSchema('search_plan'),
  stepSchema('retrieve'),
  stepSchema('source_policy'),
  stepSchema('extract'),
  stepSchema('claims'),
  stepSchema('contradictions'),
  stepSchema('coverage'),
  stepSchema('moderate'),
  stepSchema('outline'),
  stepSchema('draft'),
  stepSchema('verify'),
  stepSchema('repair'),
  stepSchema('frame'),
  stepSchema('render'),
]);
export type StepJob = z.infer<typeof StepJob>;
// Compile-time check that the union covers every node.
type MissingNodes = Exclude<NodeName, z.infer<typeof StepJob>['node']>;
const everyNodeHasAStepSchema: MissingNodes extends never ? true : MissingNodes = true;
void everyNodeHasAStepSchema;

export type StepJobOf<N extends NodeName> = Extract<StepJob, { node: N }>;

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

import type { ResultOf } from './node-table';
import { NODES, type CoreNodeRows, type NodeName } from './nodes';

/**
 * What each node reports when it completes (the `result` column of the node table): the persisted facts the
 * router reads to decide what runs next, plus counts for progress.
 */
export const NODE_RESULT_SCHEMAS = NODES.results;

export type NodeResultOf<N extends NodeName> = ResultOf<CoreNodeRows, N>;
export type AnyNodeResult = NodeResultOf<NodeName>;

export function parseNodeResult<N extends NodeName>(node: N, value: unknown): NodeResultOf<N> {
  return NODE_RESULT_SCHEMAS[node].parse(value) as NodeResultOf<N>;
}

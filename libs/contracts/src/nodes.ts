import { z } from 'zod';

/** Every node of the workflow (docs/architecture.md §3). Gates are not nodes: a gate is a pause between two nodes. */
export const NODE_NAMES = [
  'scope',
  'perspectives',
  'questions',
  'search_plan',
  'retrieve',
  'source_policy',
  'extract',
  'claims',
  'contradictions',
  'coverage',
  'moderate',
  'outline',
  'draft',
  'verify',
  'repair',
  'frame',
  'render',
] as const;
export const NodeName = z.enum(NODE_NAMES);
export type NodeName = z.infer<typeof NodeName>;

export const GATE_NAMES = ['plan', 'outline', 'publish'] as const;
export const GateName = z.enum(GATE_NAMES);
export type GateName = z.infer<typeof GateName>;

/** One BullMQ queue per service; the job name inside a queue is the node name. */
export const SERVICE_NAMES = ['planner', 'searcher', 'extractor', 'claims', 'writer', 'verifier', 'renderer'] as const;
export const ServiceName = z.enum(SERVICE_NAMES);
export type ServiceName = z.infer<typeof ServiceName>;

/** Which service owns (runs) each node. The queue of a node is the queue of its service. */
export const NODE_SERVICE: { readonly [N in NodeName]: ServiceName } = {
  scope: 'planner',
  perspectives: 'planner',
  questions: 'planner',
  search_plan: 'searcher',
  retrieve: 'searcher',
  source_policy: 'searcher',
  extract: 'extractor',
  claims: 'claims',
  contradictions: 'claims',
  coverage: 'claims',
  moderate: 'claims',
  outline: 'writer',
  draft: 'writer',
  verify: 'verifier',
  repair: 'writer',
  frame: 'writer',
  render: 'renderer',
};

export function nodesOfService(service: ServiceName): NodeName[] {
  return NODE_NAMES.filter((n) => NODE_SERVICE[n] === service);
}

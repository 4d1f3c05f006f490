import { FANOUT_NODES, NODE_SERVICE, type GateName, type NodeName, type ServiceName } from '@dossier/contracts';

/**
 * How the next step's iteration relates to the current one. `same`: stay (the next node of one research
 * iteration); `next`: one more (a new loop pass, a revision after a rejected gate, a repair round);
 * `reset`: 0 (entering a new phase).
 */
export type IterationRule = 'same' | 'next' | 'reset';

export interface Goto {
  to: NodeName;
  iteration: IterationRule;
}

export type Transition =
  | { kind: 'goto'; goto: Goto }
  /** One step per shard; the count is a field of the latest result of `countFrom.node`. */
  | { kind: 'fanout'; goto: Goto; countFrom: { node: NodeName; field: string } }
  /** Pause for a person (or pass straight through when the run's policy says `auto`). */
  | { kind: 'gate'; gate: GateName; approve: Transition; reject: Goto }
  /** After `moderate`: another research iteration, or leave the loop (reason recorded on the run). */
  | { kind: 'research_loop'; continue: Transition; exit: Transition }
  /** After the `verify` join: repair failing sentences (bounded by maxRepairRounds), or go on. */
  | { kind: 'repair_loop'; repair: Transition; exit: Transition }
  | { kind: 'end' };

export interface NodeSpec {
  service: ServiceName;
  /** A fan-out node runs once per shard; `then` is followed once, when the last shard completes (the join). */
  fanout: boolean;
  then: Transition;
}

export interface WorkflowGraph {
  version: number;
  start: Goto;
  nodes: { readonly [N in NodeName]: NodeSpec };
}

const goto = (to: NodeName, iteration: IterationRule = 'same'): Transition => ({ kind: 'goto', goto: { to, iteration } });
const fanout = (to: NodeName, iteration: IterationRule, countFrom: NodeName, field: string): Transition => ({
  kind: 'fanout',
  goto: { to, iteration },
  countFrom: { node: countFrom, field },
});
const spec = (node: NodeName, then: Transition): NodeSpec => ({
  service: NODE_SERVICE[node],
  fanout: (FANOUT_NODES as readonly NodeName[]).includes(node),
  then,
});

/** Sections are drafted once per approved outline and verified once per repair round. */
const verifyAllSections = (iteration: IterationRule) => fanout('verify', iteration, 'outline', 'sections');

/** The workflow of docs/architecture.md §3, version 1. A run keeps the version it started with. */
export const WORKFLOW_V1: WorkflowGraph = {
  version: 1,
  start: { to: 'scope', iteration: 'reset' },
  nodes: {
    scope: spec('scope', goto('perspectives')),
    perspectives: spec('perspectives', goto('questions')),
    questions: spec('questions', {
      kind: 'gate',
      gate: 'plan',
      approve: goto('search_plan', 'reset'),
      reject: { to: 'perspectives', iteration: 'next' },
    }),
    search_plan: spec('search_plan', fanout('retrieve', 'same', 'search_plan', 'queries')),
    retrieve: spec('retrieve', goto('source_policy')),
    source_policy: spec('source_policy', fanout('extract', 'same', 'source_policy', 'sources')),
    extract: spec('extract', goto('claims')),
    claims: spec('claims', goto('contradictions')),
    contradictions: spec('contradictions', goto('coverage')),
    coverage: spec('coverage', goto('moderate')),
    moderate: spec('moderate', { kind: 'research_loop', continue: goto('search_plan', 'next'), exit: goto('outline', 'reset') }),
    outline: spec('outline', {
      kind: 'gate',
      gate: 'outline',
      approve: fanout('draft', 'reset', 'outline', 'sections'),
      reject: { to: 'outline', iteration: 'next' },
    }),
    draft: spec('draft', verifyAllSections('reset')),
    verify: spec('verify', { kind: 'repair_loop', repair: goto('repair'), exit: goto('frame', 'reset') }),
    repair: spec('repair', verifyAllSections('next')),
    frame: spec('frame', {
      kind: 'gate',
      gate: 'publish',
      approve: goto('render', 'reset'),
      reject: { to: 'frame', iteration: 'next' },
    }),
    render: spec('render', { kind: 'end' }),
  },
};

export const CURRENT_WORKFLOW_VERSION = WORKFLOW_V1.version;

const GRAPHS: ReadonlyMap<number, WorkflowGraph> = new Map([[WORKFLOW_V1.version, WORKFLOW_V1]]);

/** The graph a run started on; a run started on version N finishes on N. */
export function graphFor(version: number): WorkflowGraph {
  const graph = GRAPHS.get(version);
  if (!graph) throw new Error(`Unknown workflow version ${version}`);
  return graph;
}

/** The gate whose rejection sends work back to `node` (its feedback is for that node's next revision). */
export function gateReturningTo(graph: WorkflowGraph, node: NodeName): GateName | undefined {
  for (const s of Object.values(graph.nodes)) {
    if (s.then.kind === 'gate' && s.then.reject.to === node) return s.then.gate;
  }
  return undefined;
}

export function gateTransition(graph: WorkflowGraph, gate: GateName): Extract<Transition, { kind: 'gate' }> {
  for (const s of Object.values(graph.nodes)) {
    if (s.then.kind === 'gate' && s.then.gate === gate) return s.then;
  }
  throw new Error(`Gate ${gate} is not in workflow version ${graph.version}`);
}

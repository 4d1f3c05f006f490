import {
  type CoreNodeRows,
  type CountField,
  type FanoutNodeOf,
  type GateName,
  type NodeNameOf,
  type NodeRows,
  type NodeTable,
  type ResultOf,
  type RunMode,
} from '@dossier/contracts';
import { NodeNotInGraphError } from '@dossier/errors';

/**
 * How the next step's iteration relates to the current one. `same`: stay (the next node of one research
 * iteration); `next`: one more (a new loop pass, a revision after a rejected gate, a repair round);
 * `reset`: 0 (entering a new phase); `{ after: node }`: one more than `node`'s latest completed iteration, or 0 if it
 * never ran (the research pass after the last one, when the current iteration counts something else: turns).
 */
export type IterationRule<R extends NodeRows = CoreNodeRows> = 'same' | 'next' | 'reset' | { after: NodeNameOf<R> };

export interface Goto<R extends NodeRows = CoreNodeRows> {
  to: NodeNameOf<R>;
  iteration: IterationRule<R>;
}

/** What a `branch` transition tests, from persisted state only: the run's mode, or whether a node has completed once. */
export type Condition<R extends NodeRows = CoreNodeRows> = { mode: readonly RunMode[] } | { ran: NodeNameOf<R> };

/** The keys of a result whose value is a boolean: what closes a shard loop. */
export type FlagField<T> = Exclude<{ [K in keyof T]: T[K] extends boolean ? K : never }[keyof T], undefined> & string;

/**
 * A loop per shard inside a fan-out (decision 0024): each shard of the node runs again, one iteration (turn) higher,
 * until its result's `closed` flag is set, the run option `turns` is reached, or a budget is spent. The node's
 * `then` is followed once, when every shard has finished its loop. The fan-out into it enters at iteration 0
 * (`reset`), so a step's iteration is its turn.
 */
export type ShardLoop<R extends NodeRows = CoreNodeRows> = {
  [N in NodeNameOf<R>]: { closed: FlagField<ResultOf<R, N>>; turns: 'interviewTurns' };
}[NodeNameOf<R>];

/** Where a fan-out's shard count comes from: a field of `node`'s result whose value is a number (checked by the compiler). */
export type CountFrom<R extends NodeRows = CoreNodeRows> = {
  [N in NodeNameOf<R>]: { node: N; field: CountField<ResultOf<R, N>> };
}[NodeNameOf<R>];

export type Transition<R extends NodeRows = CoreNodeRows> =
  | { kind: 'goto'; goto: Goto<R> }
  /** One step per shard; the count is a field of the latest result of `countFrom.node`. */
  | { kind: 'fanout'; goto: Goto<R>; countFrom: CountFrom<R> }
  /** Pause for a person (or pass straight through when the run's policy says `auto`). */
  | { kind: 'gate'; gate: GateName; approve: Transition<R>; reject: Goto<R> }
  /** After `moderate`: another research iteration, or leave the loop (reason recorded on the run). */
  | { kind: 'research_loop'; continue: Transition<R>; exit: Transition<R> }
  /** After the `verify` join: repair failing sentences (bounded by maxRepairRounds), or go on. */
  | { kind: 'repair_loop'; repair: Transition<R>; exit: Transition<R> }
  /** The first case whose condition holds, else `otherwise`. */
  | { kind: 'branch'; cases: readonly { when: Condition<R>; then: Transition<R> }[]; otherwise: Transition<R> }
  | { kind: 'end' };

/** A node of a graph version: what follows it (for a fan-out node, followed once, when the last shard completes). */
export interface NodeSpec<R extends NodeRows = CoreNodeRows> {
  then: Transition<R>;
  /** A fan-out node only: each shard loops over turns before the join (decision 0024). */
  loop?: ShardLoop<R>;
}

/**
 * One version of the workflow: the nodes it uses, each with its outgoing edge. Service and fan-out come from
 * the node table (`table`); a node of the table that a version does not list never runs on that version.
 */
export interface WorkflowGraph<R extends NodeRows = CoreNodeRows> {
  readonly version: number;
  readonly table: NodeTable<R>;
  readonly start: Goto<R>;
  readonly nodes: { readonly [N in NodeNameOf<R>]?: NodeSpec<R> };
}

export class WorkflowGraphError extends Error {
  override readonly name = 'WorkflowGraphError';
}

/** The edge helpers and the checked constructor of graph versions over one node table. */
export function graphsOver<R extends NodeRows>(table: NodeTable<R>) {
  return {
    goto: (to: NodeNameOf<R>, iteration: IterationRule<R> = 'same'): Transition<R> => ({ kind: 'goto', goto: { to, iteration } }),
    fanout: <C extends NodeNameOf<R>>(
      to: FanoutNodeOf<R>,
      iteration: IterationRule<R>,
      countFrom: C,
      field: CountField<ResultOf<R, C>>,
    ): Transition<R> => ({
      kind: 'fanout',
      goto: { to, iteration },
      countFrom: { node: countFrom, field } as CountFrom<R>,
    }),
    defineGraph: (graph: Omit<WorkflowGraph<R>, 'table'>): WorkflowGraph<R> => checkGraph({ ...graph, table }),
    /**
     * The nodes of an earlier version, as nodes over this table: the start of the next version (`{ ...nodesOf(V1),
     * annotate: … }`). Allowed when this table extends the earlier one: each of its rows is the same declaration here.
     */
    nodesOf: (earlier: {
      readonly version: number;
      readonly table: { readonly rows: NodeRows };
      readonly nodes: object;
    }): WorkflowGraph<R>['nodes'] => {
      for (const [node, row] of Object.entries(earlier.table.rows)) {
        if (table.rows[node] !== row)
          throw new WorkflowGraphError(`workflow version ${earlier.version}: node ${node} is declared differently in this table`);
      }
      return earlier.nodes as WorkflowGraph<R>['nodes'];
    },
  };
}

/**
 * Checks what the types cannot: every edge lands on a node of this version, a fan-out edge lands on a fan-out
 * node and counts by a field of a node of this version, a plain edge never lands on a fan-out node. A bad graph
 * fails at import, not in a run.
 */
function checkGraph<R extends NodeRows>(graph: WorkflowGraph<R>): WorkflowGraph<R> {
  const { table } = graph;
  const where = `workflow version ${graph.version}`;
  if (!Number.isInteger(graph.version) || graph.version < 1) throw new WorkflowGraphError(`${where}: a version is a positive integer`);
  const listed = new Set(Object.keys(graph.nodes));
  for (const node of listed) if (!table.has(node)) throw new WorkflowGraphError(`${where}: node ${node} is not in its node table`);
  const loops = (to: string) => (graph.nodes as Record<string, NodeSpec<R> | undefined>)[to]?.loop !== undefined;
  const rule = (r: IterationRule<R>, edge: string): void => {
    if (typeof r === 'object' && !listed.has(r.after))
      throw new WorkflowGraphError(`${where}: ${edge} counts its iteration after ${r.after}, which this version does not list`);
  };
  const single = (to: string, edge: string): void => {
    if (!listed.has(to)) throw new WorkflowGraphError(`${where}: ${edge} goes to ${to}, which this version does not list`);
    if (table.isFanout(to as NodeNameOf<R>))
      throw new WorkflowGraphError(`${where}: ${edge} goes to fan-out node ${to} without a fan-out edge`);
  };
  const check = (t: Transition<R>, from: string): void => {
    switch (t.kind) {
      case 'goto':
        rule(t.goto.iteration, `the edge from ${from}`);
        return single(t.goto.to, `the edge from ${from}`);
      case 'fanout': {
        const { node, field } = t.countFrom;
        rule(t.goto.iteration, `the fan-out from ${from}`);
        // A looping shard's iteration is its turn: the loop starts at turn 0.
        if (loops(t.goto.to) && t.goto.iteration !== 'reset')
          throw new WorkflowGraphError(`${where}: the fan-out from ${from} into shard loop ${t.goto.to} must reset the iteration`);
        if (!listed.has(t.goto.to))
          throw new WorkflowGraphError(`${where}: the fan-out from ${from} goes to ${t.goto.to}, which this version does not list`);
        if (!table.isFanout(t.goto.to))
          throw new WorkflowGraphError(`${where}: the fan-out from ${from} goes to ${t.goto.to}, which is not a fan-out node`);
        if (!listed.has(node))
          throw new WorkflowGraphError(`${where}: the fan-out from ${from} counts by ${node}, which this version does not list`);
        if (!(field in table.rows[node]!.result.shape)) throw new WorkflowGraphError(`${where}: ${node} results have no field ${field}`);
        return;
      }
      case 'gate':
        single(t.reject.to, `the rejection of gate ${t.gate}`);
        return check(t.approve, from);
      case 'research_loop':
        check(t.continue, from);
        return check(t.exit, from);
      case 'repair_loop':
        check(t.repair, from);
        return check(t.exit, from);
      case 'branch':
        for (const c of t.cases) {
          if ('ran' in c.when && !listed.has(c.when.ran))
            throw new WorkflowGraphError(`${where}: a branch after ${from} tests ${c.when.ran}, which this version does not list`);
          check(c.then, from);
        }
        return check(t.otherwise, from);
      case 'end':
        return;
    }
  };
  single(graph.start.to, 'the start');
  for (const [node, spec] of Object.entries(graph.nodes) as [string, NodeSpec<R>][]) {
    check(spec.then, node);
    if (spec.loop) {
      if (!table.isFanout(node as NodeNameOf<R>))
        throw new WorkflowGraphError(`${where}: node ${node} loops per shard but does not fan out`);
      if (!(spec.loop.closed in table.rows[node]!.result.shape))
        throw new WorkflowGraphError(`${where}: ${node} results have no field ${spec.loop.closed}`);
    }
  }
  return Object.freeze(graph);
}

/** The spec of `node` in `graph`, or a typed error: a step of a node its run's version does not use never runs. */
export function nodeSpec(graph: WorkflowGraph, node: string, runId?: string): NodeSpec {
  const spec = graph.nodes[node as keyof WorkflowGraph['nodes']];
  if (!spec) throw new NodeNotInGraphError(`Node ${node} is not in workflow version ${graph.version}`, runId ? { runId } : {});
  return spec;
}

type GateTransition = Extract<Transition, { kind: 'gate' }>;

/** Every gate of a graph, including gates reached through another transition (a branch, a loop's exit). */
function gatesOf(graph: WorkflowGraph): GateTransition[] {
  const out: GateTransition[] = [];
  const walk = (t: Transition): void => {
    switch (t.kind) {
      case 'gate':
        out.push(t);
        return walk(t.approve);
      case 'research_loop':
        walk(t.continue);
        return walk(t.exit);
      case 'repair_loop':
        walk(t.repair);
        return walk(t.exit);
      case 'branch':
        t.cases.forEach((c) => walk(c.then));
        return walk(t.otherwise);
      case 'goto':
      case 'fanout':
      case 'end':
        return;
    }
  };
  for (const s of Object.values(graph.nodes)) if (s) walk(s.then);
  return out;
}

/** The gate whose rejection sends work back to `node` (its feedback is for that node's next revision). */
export function gateReturningTo(graph: WorkflowGraph, node: string): GateName | undefined {
  return gatesOf(graph).find((g) => g.reject.to === node)?.gate;
}

export function gateTransition(graph: WorkflowGraph, gate: GateName): GateTransition {
  const found = gatesOf(graph).find((g) => g.gate === gate);
  if (!found) throw new WorkflowGraphError(`Gate ${gate} is not in workflow version ${graph.version}`);
  return found;
}

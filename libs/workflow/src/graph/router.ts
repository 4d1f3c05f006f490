import type { AnyNodeResult, BudgetKind, GateName, NodeName, RunOptions, StopReason } from '@dossier/contracts';
import { gateTransition, nodeSpec, type Goto, type Transition, type WorkflowGraph } from './workflow-graph';

/** Persisted facts the router decides from. Built from Postgres inside the deciding transaction. */
export interface RouterState {
  options: Pick<RunOptions, 'gates' | 'maxIterations' | 'minInformationGain' | 'maxRepairRounds' | 'mode' | 'interviewTurns'>;
  budgetExhausted: BudgetKind | null;
  /** The latest completed result of each single-step node (shard 0 for fan-outs), with its iteration. */
  results: Partial<Record<NodeName, { iteration: number; result: AnyNodeResult }>>;
}

export type RouterEvent =
  | { type: 'start' }
  | {
      type: 'step_completed';
      node: NodeName;
      iteration: number;
      shard: number;
      result: AnyNodeResult;
      /** For a fan-out node: how many shards were decided and the results of those completed so far. */
      shards?: { expected: number; results: AnyNodeResult[] };
      /**
       * For a node that loops per shard (decision 0024): how many shards the fan-out was given, and the last results of
       * the other shards that have finished their loops (their last decided turn is completed).
       */
      turns?: { expected: number; finishedElsewhere: AnyNodeResult[] };
    }
  | { type: 'gate_decided'; gate: GateName; revision: number; decision: 'approve' | 'reject' };

export interface PlannedStep {
  node: NodeName;
  iteration: number;
  shard: number;
}

export interface Decision {
  steps: PlannedStep[];
  openGate?: { gate: GateName; revision: number };
  /** Gates passed without a person because the run's policy said `auto`. */
  autoApproved: { gate: GateName; revision: number }[];
  /** The research loop ended after `iteration`, for `reason`. */
  stop?: { reason: StopReason; iteration: number };
  complete: boolean;
  /** A fan-out shard completed but others are still running: nothing to do yet. */
  waiting: boolean;
}

class RoutingError extends Error {}

function nextIteration(rule: Goto['iteration'], current: number, state: RouterState): number {
  if (typeof rule === 'object') {
    const latest = state.results[rule.after];
    return latest ? latest.iteration + 1 : 0;
  }
  switch (rule) {
    case 'same':
      return current;
    case 'next':
      return current + 1;
    case 'reset':
      return 0;
  }
}

/** Why research should stop after iteration `iteration`, or undefined to go on. Order matters: the first reason wins. */
export function researchStopReason(state: RouterState, iteration: number, moderate: AnyNodeResult): StopReason | undefined {
  const {
    informationGain,
    openQuestions,
    addedQuestions = 0,
  } = moderate as { informationGain: number; openQuestions: number; addedQuestions?: number };
  if (state.budgetExhausted) return 'budget_exhausted';
  // A question a person added is researched even when the moderator found nothing more to ask.
  const asked = addedQuestions > 0;
  if (openQuestions === 0 && !asked) return 'nothing_left_to_ask';
  if (informationGain < state.options.minInformationGain && !asked) return 'low_information_gain';
  if (iteration + 1 >= state.options.maxIterations) return 'max_iterations';
  return undefined;
}

/**
 * The pure router: from persisted state and one event, the steps to run next. No clock, no randomness,
 * no I/O, so the same state always gives the same decision, and every edge can be tested in isolation.
 */
export function route(graph: WorkflowGraph, state: RouterState, event: RouterEvent): Decision {
  const decision: Decision = { steps: [], autoApproved: [], complete: false, waiting: false };

  const follow = (t: Transition, current: number, joined: AnyNodeResult[], completed?: AnyNodeResult): void => {
    switch (t.kind) {
      case 'goto':
        decision.steps.push({ node: t.goto.to, iteration: nextIteration(t.goto.iteration, current, state), shard: 0 });
        return;
      case 'fanout': {
        const iteration = nextIteration(t.goto.iteration, current, state);
        const source = state.results[t.countFrom.node];
        const count = (source?.result as Record<string, unknown> | undefined)?.[t.countFrom.field];
        if (typeof count !== 'number') {
          throw new RoutingError(`Cannot fan out ${t.goto.to}: no ${t.countFrom.node}.${t.countFrom.field} in the run's results`);
        }
        // Nothing to fan out to: the join is already complete, with no shard results.
        if (count === 0) return follow(nodeSpec(graph, t.goto.to).then, iteration, []);
        for (let shard = 0; shard < count; shard++) decision.steps.push({ node: t.goto.to, iteration, shard });
        return;
      }
      case 'gate':
        if (state.options.gates[t.gate] === 'auto') {
          decision.autoApproved.push({ gate: t.gate, revision: current });
          return follow(t.approve, current, joined);
        }
        decision.openGate = { gate: t.gate, revision: current };
        return;
      case 'research_loop': {
        if (!completed) throw new RoutingError('research_loop needs the result of the step that completed');
        const reason = researchStopReason(state, current, completed);
        if (reason) {
          decision.stop = { reason, iteration: current };
          return follow(t.exit, current, joined);
        }
        return follow(t.continue, current, joined);
      }
      case 'repair_loop': {
        const failing = joined.reduce((sum, r) => sum + ((r as { failing?: number }).failing ?? 0), 0);
        if (failing > 0 && current < state.options.maxRepairRounds) return follow(t.repair, current, joined);
        return follow(t.exit, current, joined);
      }
      case 'branch': {
        const taken = t.cases.find((c) =>
          'mode' in c.when ? c.when.mode.includes(state.options.mode) : state.results[c.when.ran] !== undefined,
        );
        return follow(taken ? taken.then : t.otherwise, current, joined, completed);
      }
      case 'end':
        decision.complete = true;
        return;
    }
  };

  switch (event.type) {
    case 'start':
      decision.steps.push({ node: graph.start.to, iteration: 0, shard: 0 });
      break;
    case 'step_completed': {
      // A node the run's version does not use (a job of another version): a typed, unrecoverable error.
      const spec = nodeSpec(graph, event.node);
      if (spec.loop) {
        const turns = event.turns;
        if (!turns) throw new RoutingError(`Shard loop ${event.node} completed without its turn counts`);
        const closed = (event.result as Record<string, unknown>)[spec.loop.closed] === true;
        // Another turn of this shard: bounded by the run's turn option and its budgets.
        if (!closed && event.iteration + 1 < state.options[spec.loop.turns] && !state.budgetExhausted) {
          decision.steps.push({ node: event.node, iteration: event.iteration + 1, shard: event.shard });
          break;
        }
        if (turns.finishedElsewhere.length + 1 < turns.expected) {
          decision.waiting = true;
          break;
        }
        // Every shard has finished its loop: the join, entered at the loop's first iteration.
        follow(spec.then, 0, [...turns.finishedElsewhere, event.result], event.result);
      } else if (graph.table.isFanout(event.node)) {
        const shards = event.shards;
        if (!shards) throw new RoutingError(`Fan-out node ${event.node} completed without its shard counts`);
        if (shards.results.length < shards.expected) {
          decision.waiting = true;
          break;
        }
        follow(spec.then, event.iteration, shards.results, event.result);
      } else {
        follow(spec.then, event.iteration, [event.result], event.result);
      }
      break;
    }
    case 'gate_decided': {
      const gate = gateTransition(graph, event.gate);
      if (event.decision === 'approve') follow(gate.approve, event.revision, []);
      else decision.steps.push({ node: gate.reject.to, iteration: nextIteration(gate.reject.iteration, event.revision, state), shard: 0 });
      break;
    }
  }
  return decision;
}

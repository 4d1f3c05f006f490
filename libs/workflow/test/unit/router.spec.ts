import {
  NODES,
  NODE_NAMES,
  NODE_RESULT_SCHEMAS,
  isFanoutNode,
  stepKey,
  type AnyNodeResult,
  type GateName,
  type NodeName,
  type StopReason,
} from '@dossier/contracts';
import { researchStopReason, route, type Decision, type PlannedStep, type RouterEvent, type RouterState } from '../../src/graph/router';
import { gateReturningTo, gateTransition } from '../../src/graph/workflow-graph';
import { graphFor } from '../../src/graph/workflow-graphs';
import { WORKFLOW_V1 } from '../../src/graph/workflow-v1';

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

type Gates = RouterState['options']['gates'];
const AUTO: Gates = { plan: 'auto', outline: 'auto', publish: 'auto' };
const REQUIRED: Gates = { plan: 'required', outline: 'required', publish: 'required' };

function makeState(over: Partial<Omit<RouterState, 'options'>> & { options?: Partial<RouterState['options']> } = {}): RouterState {
  return {
    options: {
      gates: AUTO,
      maxIterations: 3,
      minInformationGain: 0.1,
      maxRepairRounds: 2,
      mode: 'survey',
      interviewTurns: 3,
      ...over.options,
    },
    budgetExhausted: over.budgetExhausted ?? null,
    results: { ...over.results },
  };
}

/** A state holding `result` as the latest result of `node` (as the runner does: the completing step is in state). */
function withResult(state: RouterState, node: NodeName, iteration: number, result: AnyNodeResult): RouterState {
  return { ...state, results: { ...state.results, [node]: { iteration, result } } };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

/** Completes a single-step node: its result goes into state first, exactly as TransitionWriter.loadState sees it. */
function completeSingle(state: RouterState, node: NodeName, iteration: number, result: AnyNodeResult): Decision {
  const s = deepFreeze(withResult(state, node, iteration, result));
  return route(WORKFLOW_V1, s, { type: 'step_completed', node, iteration, shard: 0, result });
}

/** Completes one shard of a fan-out node, with the join bookkeeping the runner passes. */
function completeShard(
  state: RouterState,
  node: NodeName,
  iteration: number,
  shard: number,
  result: AnyNodeResult,
  shards: { expected: number; results: AnyNodeResult[] },
): Decision {
  return route(WORKFLOW_V1, deepFreeze(state), { type: 'step_completed', node, iteration, shard, result, shards });
}

function decideGate(state: RouterState, gate: GateName, revision: number, decision: 'approve' | 'reject'): Decision {
  return route(WORKFLOW_V1, deepFreeze(state), { type: 'gate_decided', gate, revision, decision });
}

const step = (node: NodeName, iteration: number, shard = 0): PlannedStep => ({ node, iteration, shard });
const shardsOf = (node: NodeName, iteration: number, count: number): PlannedStep[] =>
  Array.from({ length: count }, (_, shard) => step(node, iteration, shard));

/** A decision that only plans `steps` (no gate, no stop, not complete, not waiting, nothing auto-approved). */
function expectPlainSteps(d: Decision, steps: PlannedStep[]): void {
  expect(d).toEqual({ steps, autoApproved: [], complete: false, waiting: false });
  expect(d.openGate).toBeUndefined();
  expect(d.stop).toBeUndefined();
}

const moderate = (informationGain: number, openQuestions: number): AnyNodeResult => ({ informationGain, openQuestions });
const verifyResult = (checked: number, failing: number): AnyNodeResult => ({ checked, failing });

// ---------------------------------------------------------------------------------------------------------------
// The graph as data
// ---------------------------------------------------------------------------------------------------------------

describe('WORKFLOW_V1 (graph as data)', () => {
  it('uses every node of the core table but the interviews, over that table (service and fan-out come from its rows)', () => {
    expect(Object.keys(WORKFLOW_V1.nodes).sort()).toEqual(NODE_NAMES.filter((n) => n !== 'interview').sort());
    expect(WORKFLOW_V1.table).toBe(NODES);
  });

  it('starts at scope, resetting the iteration, and is the graph of version 1', () => {
    expect(WORKFLOW_V1.start).toEqual({ to: 'scope', iteration: 'reset' });
    expect(graphFor(1)).toBe(WORKFLOW_V1);
    expect(() => graphFor(3)).toThrow(/Unknown workflow version 3/);
  });

  it('maps every gate to its transition and every rejection back to the node that revises', () => {
    expect(gateTransition(WORKFLOW_V1, 'plan').reject).toEqual({ to: 'perspectives', iteration: 'next' });
    expect(gateTransition(WORKFLOW_V1, 'outline').reject).toEqual({ to: 'outline', iteration: 'next' });
    expect(gateTransition(WORKFLOW_V1, 'publish').reject).toEqual({ to: 'frame', iteration: 'next' });
    expect(gateReturningTo(WORKFLOW_V1, 'perspectives')).toBe('plan');
    expect(gateReturningTo(WORKFLOW_V1, 'outline')).toBe('outline');
    expect(gateReturningTo(WORKFLOW_V1, 'frame')).toBe('publish');
    expect(gateReturningTo(WORKFLOW_V1, 'scope')).toBeUndefined();
    expect(gateReturningTo(WORKFLOW_V1, 'questions')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// start and single-step edges
// ---------------------------------------------------------------------------------------------------------------

describe('route: start', () => {
  it('plans scope at iteration 0, shard 0', () => {
    expectPlainSteps(route(WORKFLOW_V1, deepFreeze(makeState()), { type: 'start' }), [step('scope', 0)]);
  });
});

describe('route: single-step edges (goto, same iteration)', () => {
  const table: { node: NodeName; result: AnyNodeResult; next: NodeName }[] = [
    { node: 'scope', result: { topics: 3 }, next: 'perspectives' },
    { node: 'perspectives', result: { perspectives: 3 }, next: 'questions' },
    { node: 'claims', result: { claims: 7 }, next: 'contradictions' },
    { node: 'contradictions', result: { contradictions: 1 }, next: 'coverage' },
    { node: 'coverage', result: { covered: 4, open: 2 }, next: 'moderate' },
  ];

  it.each(table.flatMap((row) => [0, 1, 4].map((iteration) => ({ ...row, iteration }))))(
    '$node at iteration $iteration → $next at the same iteration',
    ({ node, result, next, iteration }) => {
      expect(NODE_RESULT_SCHEMAS[node].safeParse(result).success).toBe(true);
      expectPlainSteps(completeSingle(makeState(), node, iteration, result), [step(next, iteration)]);
    },
  );

  it('render → complete, no more steps', () => {
    const d = completeSingle(makeState(), 'render', 0, { artifacts: 2 });
    expect(d).toEqual({ steps: [], autoApproved: [], complete: true, waiting: false });
  });

  it('is deterministic: the same state and event give the same decision', () => {
    const state = makeState({ results: { search_plan: { iteration: 1, result: { queries: 3 } } } });
    const event: RouterEvent = { type: 'step_completed', node: 'search_plan', iteration: 1, shard: 0, result: { queries: 3 } };
    expect(route(WORKFLOW_V1, deepFreeze(state), event)).toEqual(route(WORKFLOW_V1, state, event));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Fan-outs and joins
// ---------------------------------------------------------------------------------------------------------------

describe('route: fan-outs and joins', () => {
  it('search_plan queries=5 → retrieve shards 0..4 at the same iteration', () => {
    expectPlainSteps(completeSingle(makeState(), 'search_plan', 2, { queries: 5 }), shardsOf('retrieve', 2, 5));
  });

  it('takes the fan-out count from the persisted search_plan result in state', () => {
    // The runner puts the completed step's result into state before routing; the router reads state.
    const state = makeState({ results: { search_plan: { iteration: 0, result: { queries: 2 } } } });
    const d = route(WORKFLOW_V1, deepFreeze(state), {
      type: 'step_completed',
      node: 'search_plan',
      iteration: 0,
      shard: 0,
      result: { queries: 2 },
    });
    expect(d.steps).toEqual(shardsOf('retrieve', 0, 2));
  });

  it('retrieve: 4 of 5 shards done → waiting, no steps', () => {
    const results = Array.from({ length: 4 }, () => ({ results: 3 }));
    const d = completeShard(makeState(), 'retrieve', 1, 3, { results: 3 }, { expected: 5, results });
    expect(d).toEqual({ steps: [], autoApproved: [], complete: false, waiting: true });
  });

  it('retrieve: 5 of 5 shards done → source_policy at the same iteration', () => {
    const results = Array.from({ length: 5 }, () => ({ results: 3 }));
    expectPlainSteps(completeShard(makeState(), 'retrieve', 1, 4, { results: 3 }, { expected: 5, results }), [step('source_policy', 1)]);
  });

  it('the join fires on the shard that completes last, whatever its number', () => {
    const results = Array.from({ length: 3 }, () => ({ results: 1 }));
    expectPlainSteps(completeShard(makeState(), 'retrieve', 0, 0, { results: 1 }, { expected: 3, results }), [step('source_policy', 0)]);
  });

  it.each([1, 3, 8])('source_policy sources=%i → extract fan-out of that many shards', (n) => {
    expectPlainSteps(completeSingle(makeState(), 'source_policy', 1, { sources: n }), shardsOf('extract', 1, n));
  });

  it('extract: partial → waiting; complete join → claims at the same iteration', () => {
    const partial = completeShard(makeState(), 'extract', 2, 0, { evidence: 1 }, { expected: 2, results: [{ evidence: 1 }] });
    expect(partial.waiting).toBe(true);
    expect(partial.steps).toEqual([]);
    const joined = completeShard(
      makeState(),
      'extract',
      2,
      1,
      { evidence: 1 },
      { expected: 2, results: [{ evidence: 1 }, { evidence: 4 }] },
    );
    expectPlainSteps(joined, [step('claims', 2)]);
  });

  it('claims → contradictions → coverage → moderate, all in the same iteration', () => {
    expect(completeSingle(makeState(), 'claims', 2, { claims: 1 }).steps).toEqual([step('contradictions', 2)]);
    expect(completeSingle(makeState(), 'contradictions', 2, { contradictions: 0 }).steps).toEqual([step('coverage', 2)]);
    expect(completeSingle(makeState(), 'coverage', 2, { covered: 1, open: 1 }).steps).toEqual([step('moderate', 2)]);
  });

  it('draft: partial → waiting; join → verify fan-out of outline.sections at round 0 (reset)', () => {
    const state = makeState({ results: { outline: { iteration: 3, result: { sections: 3 } } } });
    const partial = completeShard(state, 'draft', 0, 2, { sentences: 4 }, { expected: 3, results: [{ sentences: 4 }, { sentences: 4 }] });
    expect(partial).toEqual({ steps: [], autoApproved: [], complete: false, waiting: true });
    const joined = completeShard(
      state,
      'draft',
      0,
      1,
      { sentences: 4 },
      { expected: 3, results: [{ sentences: 4 }, { sentences: 4 }, { sentences: 2 }] },
    );
    expectPlainSteps(joined, shardsOf('verify', 0, 3));
  });

  it('verify: partial join → waiting, no repair decision yet', () => {
    const state = makeState({ results: { outline: { iteration: 0, result: { sections: 3 } } } });
    const d = completeShard(state, 'verify', 0, 0, verifyResult(5, 5), { expected: 3, results: [verifyResult(5, 5)] });
    expect(d).toEqual({ steps: [], autoApproved: [], complete: false, waiting: true });
  });

  it('throws when a fan-out node completes without shard counts', () => {
    expect(() =>
      route(WORKFLOW_V1, makeState(), { type: 'step_completed', node: 'retrieve', iteration: 0, shard: 0, result: { results: 1 } }),
    ).toThrow(/retrieve completed without its shard counts/);
  });

  it('throws when the fan-out count is not in the results', () => {
    // search_plan completed but its result is not in state: nothing to count the retrieve shards from.
    expect(() =>
      route(WORKFLOW_V1, makeState(), { type: 'step_completed', node: 'search_plan', iteration: 0, shard: 0, result: { queries: 2 } }),
    ).toThrow(/Cannot fan out retrieve: no search_plan\.queries/);
  });
});

describe('route: zero fan-out (the join is complete with no shards)', () => {
  it('search_plan queries=0 → straight to source_policy, same iteration', () => {
    expectPlainSteps(completeSingle(makeState(), 'search_plan', 1, { queries: 0 }), [step('source_policy', 1)]);
  });

  it('source_policy sources=0 → straight to claims, same iteration', () => {
    expectPlainSteps(completeSingle(makeState(), 'source_policy', 2, { sources: 0 }), [step('claims', 2)]);
  });

  it('outline sections=0, approved at the gate → through the draft and verify joins to frame 0', () => {
    const state = makeState({ options: { gates: REQUIRED }, results: { outline: { iteration: 1, result: { sections: 0 } } } });
    expectPlainSteps(decideGate(state, 'outline', 1, 'approve'), [step('frame', 0)]);
  });

  it('outline sections=0 with an auto outline gate → frame 0, outline auto-approved', () => {
    const d = completeSingle(makeState(), 'outline', 0, { sections: 0 });
    expect(d.steps).toEqual([step('frame', 0)]);
    expect(d.autoApproved).toEqual([{ gate: 'outline', revision: 0 }]);
    expect(d.complete).toBe(false);
  });

  it('repair with outline.sections=0 → verify round is empty → frame', () => {
    const state = makeState({ results: { outline: { iteration: 0, result: { sections: 0 } } } });
    expectPlainSteps(completeSingle(state, 'repair', 0, { repaired: 0, dropped: 0 }), [step('frame', 0)]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Gates
// ---------------------------------------------------------------------------------------------------------------

describe('route: gates', () => {
  describe("policy 'required'", () => {
    it.each([0, 2])('questions at iteration %i opens gate plan with revision = iteration, and plans nothing', (iteration) => {
      const d = completeSingle(makeState({ options: { gates: REQUIRED } }), 'questions', iteration, { questions: 5 });
      expect(d).toEqual({ steps: [], autoApproved: [], openGate: { gate: 'plan', revision: iteration }, complete: false, waiting: false });
    });

    it('outline opens gate outline (revision = outline iteration)', () => {
      const d = completeSingle(makeState({ options: { gates: REQUIRED } }), 'outline', 3, { sections: 2 });
      expect(d).toEqual({ steps: [], autoApproved: [], openGate: { gate: 'outline', revision: 3 }, complete: false, waiting: false });
    });

    it('frame opens gate publish (revision = frame iteration)', () => {
      const d = completeSingle(makeState({ options: { gates: REQUIRED } }), 'frame', 1, { sections: 2 });
      expect(d).toEqual({ steps: [], autoApproved: [], openGate: { gate: 'publish', revision: 1 }, complete: false, waiting: false });
    });

    it('only the gate whose policy is required pauses', () => {
      const gates: Gates = { plan: 'auto', outline: 'required', publish: 'auto' };
      expect(completeSingle(makeState({ options: { gates } }), 'questions', 0, { questions: 1 }).openGate).toBeUndefined();
      expect(completeSingle(makeState({ options: { gates } }), 'outline', 0, { sections: 1 }).openGate).toEqual({
        gate: 'outline',
        revision: 0,
      });
      expect(completeSingle(makeState({ options: { gates } }), 'frame', 0, { sections: 1 }).openGate).toBeUndefined();
    });
  });

  describe("policy 'auto'", () => {
    it('questions → search_plan at iteration 0 (reset), plan auto-approved at revision = iteration', () => {
      const d = completeSingle(makeState(), 'questions', 2, { questions: 5 });
      expect(d).toEqual({
        steps: [step('search_plan', 0)],
        autoApproved: [{ gate: 'plan', revision: 2 }],
        complete: false,
        waiting: false,
      });
      expect(d.openGate).toBeUndefined();
    });

    it('outline sections=3 → draft shards 0..2 at iteration 0, outline auto-approved', () => {
      const d = completeSingle(makeState(), 'outline', 1, { sections: 3 });
      expect(d).toEqual({
        steps: shardsOf('draft', 0, 3),
        autoApproved: [{ gate: 'outline', revision: 1 }],
        complete: false,
        waiting: false,
      });
    });

    it('frame → render at iteration 0, publish auto-approved', () => {
      const d = completeSingle(makeState(), 'frame', 2, { sections: 4 });
      expect(d).toEqual({ steps: [step('render', 0)], autoApproved: [{ gate: 'publish', revision: 2 }], complete: false, waiting: false });
    });
  });

  describe('gate_decided', () => {
    const state = makeState({ options: { gates: REQUIRED }, results: { outline: { iteration: 2, result: { sections: 4 } } } });

    it.each([0, 1, 5])('approve plan (revision %i) → search_plan iteration 0', (revision) => {
      expectPlainSteps(decideGate(state, 'plan', revision, 'approve'), [step('search_plan', 0)]);
    });

    it.each([0, 1, 5])('reject plan revision %i → perspectives at revision + 1', (revision) => {
      expectPlainSteps(decideGate(state, 'plan', revision, 'reject'), [step('perspectives', revision + 1)]);
    });

    it('approve outline → draft fan-out counted from the outline result, iteration 0', () => {
      expectPlainSteps(decideGate(state, 'outline', 2, 'approve'), shardsOf('draft', 0, 4));
    });

    it.each([0, 2])('reject outline revision %i → outline at revision + 1', (revision) => {
      expectPlainSteps(decideGate(state, 'outline', revision, 'reject'), [step('outline', revision + 1)]);
    });

    it('approve publish → render iteration 0', () => {
      expectPlainSteps(decideGate(state, 'publish', 3, 'approve'), [step('render', 0)]);
    });

    it.each([0, 3])('reject publish revision %i → frame at revision + 1', (revision) => {
      expectPlainSteps(decideGate(state, 'publish', revision, 'reject'), [step('frame', revision + 1)]);
    });

    it('a rejected plan revises: perspectives r+1 → questions r+1 → gate plan opens at revision r+1', () => {
      const rejected = decideGate(state, 'plan', 0, 'reject');
      expect(rejected.steps).toEqual([step('perspectives', 1)]);
      expect(completeSingle(state, 'perspectives', 1, { perspectives: 3 }).steps).toEqual([step('questions', 1)]);
      expect(completeSingle(state, 'questions', 1, { questions: 3 }).openGate).toEqual({ gate: 'plan', revision: 1 });
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The research loop
// ---------------------------------------------------------------------------------------------------------------

describe('route: research loop at moderate', () => {
  const opts = { maxIterations: 3, minInformationGain: 0.1 };

  it.each<{ name: string; budget: RouterState['budgetExhausted']; gain: number; open: number; iteration: number; reason: StopReason }>([
    { name: 'budget exhausted', budget: 'tokens', gain: 0.9, open: 5, iteration: 0, reason: 'budget_exhausted' },
    { name: 'no open questions', budget: null, gain: 0.9, open: 0, iteration: 0, reason: 'nothing_left_to_ask' },
    { name: 'gain below the minimum', budget: null, gain: 0.05, open: 5, iteration: 1, reason: 'low_information_gain' },
    { name: 'gain zero', budget: null, gain: 0, open: 5, iteration: 0, reason: 'low_information_gain' },
    { name: 'last allowed iteration', budget: null, gain: 0.9, open: 5, iteration: 2, reason: 'max_iterations' },
    { name: 'past the last iteration', budget: null, gain: 0.9, open: 5, iteration: 7, reason: 'max_iterations' },
  ])('$name → stop.reason $reason, then outline iteration 0', ({ budget, gain, open, iteration, reason }) => {
    const d = completeSingle(makeState({ budgetExhausted: budget, options: opts }), 'moderate', iteration, moderate(gain, open));
    expect(d).toEqual({ steps: [step('outline', 0)], autoApproved: [], stop: { reason, iteration }, complete: false, waiting: false });
  });

  it.each([0, 1])('no stop condition at iteration %i → search_plan at iteration + 1, no stop', (iteration) => {
    expectPlainSteps(completeSingle(makeState({ options: opts }), 'moderate', iteration, moderate(0.5, 3)), [
      step('search_plan', iteration + 1),
    ]);
  });

  it.each([
    { name: 'nothing else to ask', gain: 0.9, open: 0 },
    { name: 'gain below the minimum', gain: 0.01, open: 2 },
  ])('questions a person added at this boundary go on despite $name', ({ gain, open }) => {
    const d = completeSingle(makeState({ options: opts }), 'moderate', 0, {
      informationGain: gain,
      openQuestions: open + 1,
      addedQuestions: 1,
    });
    expectPlainSteps(d, [step('search_plan', 1)]);
    // With no added question, the same signals stop research.
    expect(completeSingle(makeState({ options: opts }), 'moderate', 0, moderate(gain, open)).stop).toBeDefined();
  });

  it('added questions do not outrun max iterations or the budget', () => {
    const added = { informationGain: 0.9, openQuestions: 1, addedQuestions: 1 };
    expect(completeSingle(makeState({ options: opts }), 'moderate', 2, added).stop).toEqual({ reason: 'max_iterations', iteration: 2 });
    expect(completeSingle(makeState({ budgetExhausted: 'cost', options: opts }), 'moderate', 0, added).stop).toEqual({
      reason: 'budget_exhausted',
      iteration: 0,
    });
  });

  it('gain exactly at the minimum continues (the threshold is strict)', () => {
    expectPlainSteps(completeSingle(makeState({ options: opts }), 'moderate', 0, moderate(0.1, 3)), [step('search_plan', 1)]);
  });

  it('maxIterations=1 stops after the first iteration', () => {
    const d = completeSingle(makeState({ options: { maxIterations: 1 } }), 'moderate', 0, moderate(1, 10));
    expect(d.stop).toEqual({ reason: 'max_iterations', iteration: 0 });
    expect(d.steps).toEqual([step('outline', 0)]);
  });

  it('decides from the completing moderate result, not from a stale one in state', () => {
    const state = makeState({ options: opts, results: { moderate: { iteration: 0, result: moderate(0.9, 5) } } });
    const d = route(WORKFLOW_V1, deepFreeze(state), {
      type: 'step_completed',
      node: 'moderate',
      iteration: 1,
      shard: 0,
      result: moderate(0.01, 5),
    });
    expect(d.stop).toEqual({ reason: 'low_information_gain', iteration: 1 });
  });

  it('with a required outline gate, stopping opens nothing yet: outline runs first', () => {
    const d = completeSingle(makeState({ options: { ...opts, gates: REQUIRED } }), 'moderate', 2, moderate(0.9, 5));
    expect(d.steps).toEqual([step('outline', 0)]);
    expect(d.openGate).toBeUndefined();
  });

  describe('precedence (researchStopReason)', () => {
    const cases: {
      name: string;
      budget: RouterState['budgetExhausted'];
      gain: number;
      open: number;
      iteration: number;
      reason: StopReason;
    }[] = [
      { name: 'all four hold → budget', budget: 'cost', gain: 0, open: 0, iteration: 2, reason: 'budget_exhausted' },
      { name: 'budget + low gain → budget', budget: 'wall_time', gain: 0, open: 3, iteration: 0, reason: 'budget_exhausted' },
      { name: 'nothing left + low gain + max → nothing left', budget: null, gain: 0, open: 0, iteration: 2, reason: 'nothing_left_to_ask' },
      { name: 'nothing left + max → nothing left', budget: null, gain: 0.9, open: 0, iteration: 2, reason: 'nothing_left_to_ask' },
      { name: 'low gain + max → low gain', budget: null, gain: 0.01, open: 3, iteration: 2, reason: 'low_information_gain' },
    ];

    it.each(cases)('$name (router)', ({ budget, gain, open, iteration, reason }) => {
      const d = completeSingle(makeState({ budgetExhausted: budget, options: opts }), 'moderate', iteration, moderate(gain, open));
      expect(d.stop).toEqual({ reason, iteration });
      expect(d.steps).toEqual([step('outline', 0)]);
    });

    it.each(cases)('$name (researchStopReason)', ({ budget, gain, open, iteration, reason }) => {
      expect(researchStopReason(makeState({ budgetExhausted: budget, options: opts }), iteration, moderate(gain, open))).toBe(reason);
    });

    it('returns undefined when nothing holds', () => {
      expect(researchStopReason(makeState({ options: opts }), 1, moderate(0.5, 2))).toBeUndefined();
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The repair loop
// ---------------------------------------------------------------------------------------------------------------

describe('route: repair loop after the verify join', () => {
  const outline = { outline: { iteration: 0, result: { sections: 3 } } } as RouterState['results'];
  const joinVerify = (round: number, results: AnyNodeResult[], maxRepairRounds = 2): Decision =>
    completeShard(makeState({ options: { maxRepairRounds }, results: outline }), 'verify', round, results.length - 1, results.at(-1)!, {
      expected: results.length,
      results,
    });

  it.each([0, 1])('failing > 0 at round %i < maxRepairRounds(2) → repair at the same round', (round) => {
    expectPlainSteps(joinVerify(round, [verifyResult(4, 0), verifyResult(4, 2), verifyResult(4, 0)]), [step('repair', round)]);
  });

  it('counts failing sentences over every shard, not only the one that completed last', () => {
    // The last shard to complete has no failing sentence; shard 0 has one.
    expectPlainSteps(joinVerify(0, [verifyResult(4, 1), verifyResult(4, 0), verifyResult(4, 0)]), [step('repair', 0)]);
  });

  it('failing > 0 at round == maxRepairRounds → frame iteration 0 (the bound)', () => {
    expectPlainSteps(joinVerify(2, [verifyResult(4, 3), verifyResult(4, 1), verifyResult(4, 0)]), [step('frame', 0)]);
  });

  it('maxRepairRounds=0 never repairs', () => {
    expectPlainSteps(joinVerify(0, [verifyResult(4, 3), verifyResult(4, 3), verifyResult(4, 3)], 0), [step('frame', 0)]);
  });

  it.each([0, 1, 2])('failing == 0 at round %i → frame iteration 0', (round) => {
    expectPlainSteps(joinVerify(round, [verifyResult(4, 0), verifyResult(4, 0), verifyResult(4, 0)]), [step('frame', 0)]);
  });

  it.each([0, 1])('repair at round %i → verify fan-out at round + 1, one shard per outline section', (round) => {
    expectPlainSteps(
      completeSingle(makeState({ results: outline }), 'repair', round, { repaired: 2, dropped: 0 }),
      shardsOf('verify', round + 1, 3),
    );
  });

  it('with a required publish gate, exiting the loop still plans frame (the gate follows frame)', () => {
    const d = completeShard(makeState({ options: { gates: REQUIRED }, results: outline }), 'verify', 0, 0, verifyResult(1, 0), {
      expected: 1,
      results: [verifyResult(1, 0)],
    });
    expectPlainSteps(d, [step('frame', 0)]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A whole run, driven by the router alone
// ---------------------------------------------------------------------------------------------------------------

interface SimOptions {
  gates: Gates;
  maxIterations: number;
  gains: number[];
  maxRepairRounds?: number;
  /** Decide an open gate; defaults to approve. */
  decide?: (gate: GateName, revision: number) => 'approve' | 'reject';
  /** How many failing sentences a verify shard reports. */
  failing?: (round: number, shard: number) => number;
}

interface SimTrace {
  executed: PlannedStep[];
  decisions: Decision[];
  gatesOpened: { gate: GateName; revision: number }[];
  gateDecisions: { gate: GateName; revision: number; decision: 'approve' | 'reject' }[];
  complete: boolean;
  completions: number;
}

/** What the runner does around the router: persist results, count planned shards, join fan-outs, decide gates. */
function simulateRun(sim: SimOptions): SimTrace {
  const RUN_ID = '3f1c1d2e-4b5a-4c6d-8e7f-901234567890';
  let state = makeState({
    options: {
      gates: sim.gates,
      maxIterations: sim.maxIterations,
      minInformationGain: 0.1,
      maxRepairRounds: sim.maxRepairRounds ?? 2,
      mode: 'survey',
      interviewTurns: 3,
    },
  });
  const queue: PlannedStep[] = [];
  const planned = new Set<string>();
  const plannedPerJoin = new Map<string, number>();
  const donePerJoin = new Map<string, AnyNodeResult[]>();
  const trace: SimTrace = { executed: [], decisions: [], gatesOpened: [], gateDecisions: [], complete: false, completions: 0 };
  const pendingGates: { gate: GateName; revision: number }[] = [];

  const produce = (s: PlannedStep): AnyNodeResult => {
    switch (s.node) {
      case 'scope':
        return { topics: 2 };
      case 'perspectives':
        return { perspectives: 3 };
      case 'questions':
        return { questions: 4 };
      case 'search_plan':
        return { queries: 2 + s.iteration }; // varies per iteration: the fan-out must follow it
      case 'retrieve':
        return { results: 3 };
      case 'source_policy':
        return { sources: 3 };
      case 'extract':
        return { evidence: 2 };
      case 'claims':
        return { claims: 5 };
      case 'contradictions':
        return { contradictions: 1 };
      case 'coverage':
        return { covered: 3, open: 2 };
      case 'moderate':
        return { informationGain: sim.gains[s.iteration] ?? 0.9, openQuestions: 2 };
      case 'outline':
        return { sections: 2 };
      case 'draft':
        return { sentences: 6 };
      case 'verify':
        return { checked: 6, failing: sim.failing ? sim.failing(s.iteration, s.shard) : 0 };
      case 'repair':
        return { repaired: 1, dropped: 0 };
      case 'frame':
        return { sections: 2 };
      case 'interview':
        return { evidence: 1, sentences: 1, closed: false };
      case 'render':
        return { artifacts: 1 };
    }
  };

  const apply = (d: Decision): void => {
    trace.decisions.push(d);
    for (const s of d.steps) {
      const key = stepKey({ runId: RUN_ID, ...s });
      // A step key is planned at most once in a run (it is the unique key of the execution and the job id).
      expect(planned.has(key)).toBe(false);
      planned.add(key);
      const join = `${s.node}.${s.iteration}`;
      plannedPerJoin.set(join, (plannedPerJoin.get(join) ?? 0) + 1);
      queue.push(s);
    }
    if (d.openGate) {
      trace.gatesOpened.push(d.openGate);
      pendingGates.push(d.openGate);
    }
    if (d.complete) {
      trace.complete = true;
      trace.completions++;
    }
  };

  apply(route(WORKFLOW_V1, state, { type: 'start' }));
  for (let guard = 0; guard < 2_000 && (queue.length > 0 || pendingGates.length > 0); guard++) {
    const gate = pendingGates.shift();
    if (gate) {
      expect(queue).toEqual([]); // a run waiting at a gate has nothing else to run
      const decision = sim.decide ? sim.decide(gate.gate, gate.revision) : 'approve';
      trace.gateDecisions.push({ ...gate, decision });
      apply(route(WORKFLOW_V1, deepFreeze(state), { type: 'gate_decided', gate: gate.gate, revision: gate.revision, decision }));
      continue;
    }
    const s = queue.shift()!;
    expect(trace.complete).toBe(false); // nothing runs after completion
    trace.executed.push(s);
    const result = produce(s);
    expect(NODE_RESULT_SCHEMAS[s.node].safeParse(result).success).toBe(true);
    let shards: { expected: number; results: AnyNodeResult[] } | undefined;
    if (isFanoutNode(s.node)) {
      const join = `${s.node}.${s.iteration}`;
      const done = [...(donePerJoin.get(join) ?? []), result];
      donePerJoin.set(join, done);
      shards = { expected: plannedPerJoin.get(join)!, results: done };
      if (s.shard === 0) state = withResult(state, s.node, s.iteration, result);
    } else {
      state = withResult(state, s.node, s.iteration, result);
    }
    apply(
      route(WORKFLOW_V1, deepFreeze(state), {
        type: 'step_completed',
        node: s.node,
        iteration: s.iteration,
        shard: s.shard,
        result,
        ...(shards ? { shards } : {}),
      }),
    );
  }
  expect(queue).toEqual([]);
  expect(pendingGates).toEqual([]);
  return trace;
}

const iterationsOf = (t: SimTrace, node: NodeName): number[] => [
  ...new Set(t.executed.filter((s) => s.node === node).map((s) => s.iteration)),
];

describe('route: a whole run driven by the router alone', () => {
  it('auto gates, maxIterations=3, gains [0.9,0.8,0.7]: 3 research iterations, stop max_iterations, every node visited, complete', () => {
    const t = simulateRun({
      gates: AUTO,
      maxIterations: 3,
      gains: [0.9, 0.8, 0.7],
      failing: (round, shard) => (round === 0 && shard === 1 ? 2 : 0),
    });

    expect(t.complete).toBe(true);
    expect(t.completions).toBe(1);
    expect(t.executed.at(-1)).toEqual(step('render', 0));

    const stops = t.decisions.flatMap((d) => (d.stop ? [d.stop] : []));
    expect(stops).toEqual([{ reason: 'max_iterations', iteration: 2 }]);

    for (const node of ['search_plan', 'source_policy', 'claims', 'contradictions', 'coverage', 'moderate'] as const) {
      expect(iterationsOf(t, node)).toEqual([0, 1, 2]);
    }
    expect(t.executed.filter((s) => s.node === 'moderate')).toHaveLength(3);
    // retrieve fans out to search_plan.queries (2 + iteration) shards in each iteration
    for (const i of [0, 1, 2]) expect(t.executed.filter((s) => s.node === 'retrieve' && s.iteration === i)).toHaveLength(2 + i);
    expect(t.executed.filter((s) => s.node === 'extract')).toHaveLength(3 * 3);

    const visited = new Set(t.executed.map((s) => s.node));
    // Version 1 has every node but the interviews (version 2).
    const v1Nodes = NODE_NAMES.filter((n) => n !== 'interview');
    for (const node of v1Nodes) expect(visited.has(node)).toBe(true);
    expect(visited.size).toBe(v1Nodes.length);

    // One repair round: verify round 0 had failing sentences, round 1 had none.
    expect(iterationsOf(t, 'repair')).toEqual([0]);
    expect(iterationsOf(t, 'verify')).toEqual([0, 1]);
    expect(t.executed.filter((s) => s.node === 'verify')).toHaveLength(2 * 2);
    expect(t.executed.filter((s) => s.node === 'draft')).toHaveLength(2);

    // Auto gates: each passed once, no gate ever opened.
    expect(t.gatesOpened).toEqual([]);
    expect(t.decisions.flatMap((d) => d.autoApproved)).toEqual([
      { gate: 'plan', revision: 0 },
      { gate: 'outline', revision: 0 },
      { gate: 'publish', revision: 0 },
    ]);
  });

  it('repair stops at maxRepairRounds when verify keeps failing', () => {
    const t = simulateRun({ gates: AUTO, maxIterations: 1, gains: [0.9], maxRepairRounds: 2, failing: () => 1 });
    expect(t.complete).toBe(true);
    expect(iterationsOf(t, 'verify')).toEqual([0, 1, 2]);
    expect(iterationsOf(t, 'repair')).toEqual([0, 1]);
    expect(t.decisions.flatMap((d) => (d.stop ? [d.stop] : []))).toEqual([{ reason: 'max_iterations', iteration: 0 }]);
  });

  it('required gates, each rejected once then approved: revisions advance and the run completes', () => {
    const rejectedOnce = new Set<GateName>();
    const t = simulateRun({
      gates: REQUIRED,
      maxIterations: 5,
      gains: [0.9, 0.05],
      decide: (gate) => {
        if (rejectedOnce.has(gate)) return 'approve';
        rejectedOnce.add(gate);
        return 'reject';
      },
    });
    expect(t.complete).toBe(true);
    expect(t.gatesOpened).toEqual([
      { gate: 'plan', revision: 0 },
      { gate: 'plan', revision: 1 },
      { gate: 'outline', revision: 0 },
      { gate: 'outline', revision: 1 },
      { gate: 'publish', revision: 0 },
      { gate: 'publish', revision: 1 },
    ]);
    expect(t.gateDecisions.map((g) => g.decision)).toEqual(['reject', 'approve', 'reject', 'approve', 'reject', 'approve']);
    expect(iterationsOf(t, 'perspectives')).toEqual([0, 1]);
    expect(iterationsOf(t, 'questions')).toEqual([0, 1]);
    expect(iterationsOf(t, 'scope')).toEqual([0]);
    expect(iterationsOf(t, 'outline')).toEqual([0, 1]);
    expect(iterationsOf(t, 'frame')).toEqual([0, 1]);
    expect(iterationsOf(t, 'moderate')).toEqual([0, 1]);
    expect(t.decisions.flatMap((d) => (d.stop ? [d.stop] : []))).toEqual([{ reason: 'low_information_gain', iteration: 1 }]);
    expect(t.decisions.flatMap((d) => d.autoApproved)).toEqual([]);
  });
});

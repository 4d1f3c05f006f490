import type { AnyNodeResult, NodeName } from '@dossier/contracts';
import { route, WORKFLOW_V1, WORKFLOW_V2, graphFor, graphsOver, type RouterState } from '../../src';
import { NODES } from '@dossier/contracts';

/** Decision 0024: a loop per shard inside a fan-out, and the mode branches of workflow version 2. */

function state(
  over: Partial<RouterState['options']> = {},
  results: RouterState['results'] = {},
  budget: RouterState['budgetExhausted'] = null,
): RouterState {
  return {
    options: {
      gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
      maxIterations: 3,
      minInformationGain: 0.1,
      maxRepairRounds: 2,
      mode: 'interviews',
      interviewTurns: 3,
      ...over,
    },
    budgetExhausted: budget,
    results,
  };
}

const turn = (closed: boolean): AnyNodeResult => ({ evidence: 2, sentences: 2, closed });

function interviewDone(
  s: RouterState,
  iteration: number,
  shard: number,
  closed: boolean,
  finishedElsewhere: AnyNodeResult[],
  expected = 4,
) {
  return route(WORKFLOW_V2, s, {
    type: 'step_completed',
    node: 'interview',
    iteration,
    shard,
    result: turn(closed),
    turns: { expected, finishedElsewhere },
  });
}

describe('workflow version 2: modes', () => {
  it('is the current version; version 1 stays for the runs started on it', () => {
    expect(graphFor(2)).toBe(WORKFLOW_V2);
    expect(graphFor(1)).toBe(WORKFLOW_V1);
    expect(Object.keys(WORKFLOW_V2.nodes).sort()).toEqual([...NODES.names].sort());
    expect(WORKFLOW_V1.nodes.interview).toBeUndefined();
  });

  const afterPlan = (mode: RouterState['options']['mode']) =>
    route(WORKFLOW_V2, state({ mode }, { perspectives: { iteration: 0, result: { perspectives: 4 } } }), {
      type: 'step_completed',
      node: 'questions',
      iteration: 0,
      shard: 0,
      result: { questions: 0 },
    });

  it('interviews: the approved plan fans out one interview per analyst, at turn 0', () => {
    expect(afterPlan('interviews').steps).toEqual([0, 1, 2, 3].map((shard) => ({ node: 'interview', iteration: 0, shard })));
  });

  it('survey and hybrid: the approved plan starts the research loop', () => {
    expect(afterPlan('survey').steps).toEqual([{ node: 'search_plan', iteration: 0, shard: 0 }]);
    expect(afterPlan('hybrid').steps).toEqual([{ node: 'search_plan', iteration: 0, shard: 0 }]);
  });

  it('hybrid: leaving the research loop starts the interviews; survey goes to the outline', () => {
    const results: RouterState['results'] = { perspectives: { iteration: 0, result: { perspectives: 2 } } };
    const leave = (mode: RouterState['options']['mode']) =>
      route(WORKFLOW_V2, state({ mode }, results), {
        type: 'step_completed',
        node: 'moderate',
        iteration: 1,
        shard: 0,
        result: { informationGain: 0.01, openQuestions: 2 },
      });
    expect(leave('hybrid').steps).toEqual([
      { node: 'interview', iteration: 0, shard: 0 },
      { node: 'interview', iteration: 0, shard: 1 },
    ]);
    expect(leave('hybrid').stop).toEqual({ reason: 'low_information_gain', iteration: 1 });
    expect(leave('survey').steps).toEqual([{ node: 'outline', iteration: 0, shard: 0 }]);
  });

  it("after the interviews' pass, coverage goes to the outline, never to another research pass", () => {
    const s = state({ mode: 'hybrid' }, { interview: { iteration: 2, result: turn(true) } });
    const d = route(WORKFLOW_V2, s, { type: 'step_completed', node: 'coverage', iteration: 2, shard: 0, result: { covered: 1, open: 1 } });
    expect(d.steps).toEqual([{ node: 'outline', iteration: 0, shard: 0 }]);
    const survey = route(WORKFLOW_V2, state({ mode: 'survey' }), {
      type: 'step_completed',
      node: 'coverage',
      iteration: 1,
      shard: 0,
      result: { covered: 1, open: 1 },
    });
    expect(survey.steps).toEqual([{ node: 'moderate', iteration: 1, shard: 0 }]);
  });
});

describe('a loop per shard inside a fan-out', () => {
  it('a turn that is not closed decides the same shard one turn higher, and nothing else', () => {
    const d = interviewDone(state(), 0, 2, false, []);
    expect(d.steps).toEqual([{ node: 'interview', iteration: 1, shard: 2 }]);
    expect(d.waiting).toBe(false);
  });

  it('a closed turn, or the last allowed turn, finishes the shard; the others still running make it wait', () => {
    expect(interviewDone(state(), 0, 1, true, []).waiting).toBe(true);
    expect(interviewDone(state(), 2, 1, false, []).waiting).toBe(true);
    expect(interviewDone(state({ interviewTurns: 1 }), 0, 1, false, []).waiting).toBe(true);
  });

  it('a spent budget finishes the shard at its current turn', () => {
    const d = interviewDone(state({}, {}, 'tokens'), 0, 0, false, []);
    expect(d.steps).toEqual([]);
    expect(d.waiting).toBe(true);
  });

  it('the last shard to finish joins: the interviews pass goes to claims, one research pass after the survey', () => {
    const others = [turn(true), turn(false), turn(true)];
    expect(interviewDone(state(), 2, 3, false, others).steps).toEqual([{ node: 'claims', iteration: 0, shard: 0 }]);
    const hybrid = state({ mode: 'hybrid' }, { moderate: { iteration: 2, result: { informationGain: 0, openQuestions: 1 } } });
    expect(interviewDone(hybrid, 1, 0, true, others).steps).toEqual([{ node: 'claims', iteration: 3, shard: 0 }]);
  });

  it('is checked at import: only on fan-out nodes, entered at turn 0, closed by a field of the result', () => {
    const { goto, fanout, defineGraph } = graphsOver(NODES);
    const nodes = (extra: object) => ({
      scope: { then: goto('perspectives') },
      perspectives: { then: fanout('interview', 'same', 'perspectives', 'perspectives') },
      interview: { then: goto('render', 'reset'), loop: { closed: 'closed', turns: 'interviewTurns' } },
      render: { then: { kind: 'end' } },
      ...extra,
    });
    expect(() => defineGraph({ version: 9, start: { to: 'scope', iteration: 'reset' }, nodes: nodes({}) } as never)).toThrow(
      /must reset the iteration/,
    );
    expect(() =>
      defineGraph({
        version: 9,
        start: { to: 'scope', iteration: 'reset' },
        nodes: nodes({ scope: { then: goto('render'), loop: { closed: 'closed', turns: 'interviewTurns' } } }),
      } as never),
    ).toThrow(/does not fan out/);
  });

  it('a fan-out of no analysts goes straight to the join', () => {
    const d = route(WORKFLOW_V2, state({}, { perspectives: { iteration: 0, result: { perspectives: 0 } } }), {
      type: 'step_completed',
      node: 'questions' as NodeName,
      iteration: 0,
      shard: 0,
      result: { questions: 0 },
    });
    expect(d.steps).toEqual([{ node: 'claims', iteration: 0, shard: 0 }]);
  });
});

import 'reflect-metadata';
import { z } from 'zod';
import { NODES } from '@dossier/contracts';
import { NodeNotInGraphError, UnknownWorkflowVersionError } from '@dossier/errors';
import { route, type RouterState } from '../../src/graph/router';
import { graphsOver, WorkflowGraphError } from '../../src/graph/workflow-graph';
import { WORKFLOWS, WorkflowGraphs } from '../../src/graph/workflow-graphs';
import { WORKFLOW_V1 } from '../../src/graph/workflow-v1';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { OnStep, STEP_METHOD } from '../../src/runner/on-step';
import type { StepContext, StepHandler, StepOutcome } from '../../src/runner/step-handler';

const count = z.int().min(0);
const EXTENDED = NODES.extend({
  annotate: {
    label: 'Test annotate',
    phase: 'research',
    description: 'a test node',
    service: 'claims',
    fanout: true,
    roles: [],
    result: z.strictObject({ notes: count }),
  },
});
const { goto, fanout, defineGraph, nodesOf } = graphsOver(EXTENDED);
const core = graphsOver(NODES);

const STATE: RouterState = {
  options: {
    gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
    maxIterations: 3,
    minInformationGain: 0.1,
    maxRepairRounds: 2,
    mode: 'survey',
    interviewTurns: 3,
  },
  budgetExhausted: null,
  results: {},
};

describe('graph versions list only the nodes they use', () => {
  it('a version of three nodes is a whole graph, routed like any other', () => {
    const small = core.defineGraph({
      version: 7,
      start: { to: 'scope', iteration: 'reset' },
      nodes: {
        scope: { then: core.goto('outline') },
        outline: { then: core.fanout('draft', 'reset', 'outline', 'sections') },
        draft: { then: { kind: 'end' } },
      },
    });
    expect(Object.keys(small.nodes)).toEqual(['scope', 'outline', 'draft']);
    const withOutline: RouterState = { ...STATE, results: { outline: { iteration: 0, result: { sections: 2 } } } };
    expect(
      route(small, withOutline, { type: 'step_completed', node: 'outline', iteration: 0, shard: 0, result: { sections: 2 } }).steps,
    ).toEqual([
      { node: 'draft', iteration: 0, shard: 0 },
      { node: 'draft', iteration: 0, shard: 1 },
    ]);
  });

  it('routing a node the version does not list is a typed, unrecoverable error naming node and version', () => {
    const small = core.defineGraph({ version: 7, start: { to: 'scope', iteration: 'reset' }, nodes: { scope: { then: { kind: 'end' } } } });
    let err: unknown;
    try {
      route(small, STATE, { type: 'step_completed', node: 'claims', iteration: 0, shard: 0, result: { claims: 1 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NodeNotInGraphError);
    expect(err).toMatchObject({ code: 'node_not_in_graph', retryable: false, message: 'Node claims is not in workflow version 7' });
  });

  it('refuses, at definition, edges the types cannot see', () => {
    const start = { to: 'scope', iteration: 'reset' } as const;
    expect(() => core.defineGraph({ version: 3, start, nodes: { scope: { then: core.goto('claims') } } })).toThrow(
      new WorkflowGraphError('workflow version 3: the edge from scope goes to claims, which this version does not list'),
    );
    expect(() =>
      core.defineGraph({ version: 3, start, nodes: { scope: { then: core.goto('draft') }, draft: { then: { kind: 'end' } } } }),
    ).toThrow(/goes to fan-out node draft without a fan-out edge/);
    expect(() =>
      core.defineGraph({
        version: 3,
        start,
        nodes: { scope: { then: core.fanout('draft', 'same', 'outline', 'sections') }, draft: { then: { kind: 'end' } } },
      }),
    ).toThrow(/counts by outline, which this version does not list/);
    expect(() => core.defineGraph({ version: 0, start, nodes: { scope: { then: { kind: 'end' } } } })).toThrow(/positive integer/);
    expect(() =>
      core.defineGraph({ version: 3, start: { to: 'claims', iteration: 'reset' }, nodes: { scope: { then: { kind: 'end' } } } }),
    ).toThrow(/the start goes to claims/);
  });

  it('types fan-out counts as number fields of the counted node (compile-time)', () => {
    const ok = fanout('annotate', 'reset', 'outline', 'sections');
    expect(ok).toEqual({ kind: 'fanout', goto: { to: 'annotate', iteration: 'reset' }, countFrom: { node: 'outline', field: 'sections' } });
    // @ts-expect-error `topics` is not a field of outline's result
    expect(() => fanout('annotate', 'reset', 'outline', 'topics')).not.toThrow();
    // @ts-expect-error `addedQuestions` may be absent: not a count
    expect(() => fanout('annotate', 'reset', 'moderate', 'addedQuestions')).not.toThrow();
    // @ts-expect-error `claims` is not a fan-out node
    expect(() => fanout('claims', 'reset', 'outline', 'sections')).not.toThrow();
  });
});

describe('WorkflowGraphs: the versions a process knows', () => {
  const v2 = defineGraph({ version: 2, start: WORKFLOW_V1.start, nodes: { ...nodesOf(WORKFLOW_V1), annotate: { then: goto('render') } } });

  it('the code base knows versions 1 and 2 (the modes, issue 14), 2 current', () => {
    expect(WORKFLOWS.versions).toEqual([1, 2]);
    expect(WORKFLOWS.current).toBe(2);
    expect(WORKFLOWS.get(1)).toBe(WORKFLOW_V1);
    expect(WORKFLOWS.table).toBe(NODES);
  });

  it('new runs start on the highest version unless told; every version stays readable', () => {
    const graphs = new WorkflowGraphs(EXTENDED, [WORKFLOW_V1, v2]);
    expect(graphs.current).toBe(2);
    expect(graphs.get(1)).toBe(WORKFLOW_V1);
    expect(new WorkflowGraphs(EXTENDED, [WORKFLOW_V1, v2], 1).current).toBe(1);
  });

  it('an unknown version is a typed error carrying the run id', () => {
    expect(() => WORKFLOWS.get(9, 'run-1')).toThrow(new UnknownWorkflowVersionError('Unknown workflow version 9'));
    expect(() => WORKFLOWS.get(9, 'run-1')).toThrow(expect.objectContaining({ runId: 'run-1', code: 'workflow_version_unknown' }) as Error);
  });

  it('refuses versions that do not fit the table', () => {
    expect(() => new WorkflowGraphs(NODES, [WORKFLOW_V1, WORKFLOW_V1])).toThrow(/declared twice/);
    expect(() => new WorkflowGraphs(NODES, [WORKFLOW_V1, v2])).toThrow(/declares node annotate differently/);
    expect(() => new WorkflowGraphs(NODES, [WORKFLOW_V1], 2)).toThrow(/current workflow version 2 is not declared/);
    const redeclared = NODES.extend({
      other: {
        label: 'Test other',
        phase: 'research',
        description: 'a test node',
        service: 'claims',
        fanout: false,
        roles: [],
        result: z.strictObject({ n: count }),
      },
    });
    const copy = { ...redeclared, rows: { ...redeclared.rows, claims: { ...NODES.rows.claims } } };
    expect(() => new WorkflowGraphs(copy as unknown as typeof NODES, [])).toThrow(/must extend the core table \(node claims\)/);
  });
});

describe('typed handlers', () => {
  it("@OnStep(node) accepts only a handler of that node's job and result (compile-time)", () => {
    @OnStep('claims')
    class Claims implements StepHandler<'claims'> {
      execute(ctx: StepContext<'claims'>): Promise<StepOutcome<'claims'>> {
        return Promise.resolve({ result: { claims: ctx.job.shard } });
      }
    }
    // @ts-expect-error a claims handler is not a coverage handler
    @OnStep('coverage')
    class Misfiled implements StepHandler<'claims'> {
      execute(): Promise<StepOutcome<'claims'>> {
        return Promise.resolve({ result: { claims: 0 } });
      }
    }
    // @ts-expect-error `outline` and `frame` report the same fields, but a frame handler is not an outline handler
    @OnStep('outline')
    class SameShape implements StepHandler<'frame'> {
      execute(ctx: StepContext<'frame'>): Promise<StepOutcome<'frame'>> {
        return Promise.resolve({ result: { sections: ctx.job.iteration } });
      }
    }
    // @ts-expect-error not a handler at all
    @OnStep('claims')
    class NotAHandler {}
    // At run time each is a Nest message handler whose pattern is the node it was filed under (decision 0035).
    const patternOf = (c: object) =>
      Reflect.getMetadata(PATTERN_METADATA, (c as { prototype: Record<string, object> }).prototype[STEP_METHOD]!) as string[];
    expect([Claims, Misfiled, SameShape, NotAHandler].map(patternOf)).toEqual([['claims'], ['coverage'], ['outline'], ['claims']]);
  });
});

import { z } from 'zod';
import {
  FANOUT_NODES,
  NODE_NAMES,
  NODE_RESULT_SCHEMAS,
  NODE_SERVICE,
  NODES,
  NodeName,
  NodeTableError,
  StepJob,
  isFanoutNode,
  nodeTable,
  nodesOfService,
  type CountField,
  type FanoutNode,
  type NodeResultOf,
  type StepJobOf,
} from '../src';

/** Compile-time equality: `const x: Equal<A, B> = true` compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const RUN = '00000000-0000-4000-8000-0000000000aa';
const TENANT = '00000000-0000-4000-8000-000000000001';
const count = z.int().min(0);

describe('the core node table and what derives from it', () => {
  it('names every node once, in workflow order, as the NodeName enum', () => {
    expect([...NODE_NAMES]).toEqual([
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
      'interview',
      'outline',
      'draft',
      'verify',
      'repair',
      'frame',
      'render',
    ]);
    expect(NodeName.parse('claims')).toBe('claims');
    expect(NodeName.safeParse('summarize').success).toBe(false);
    const names: Equal<NodeName, (typeof NODE_NAMES)[number]> = true;
    expect(names).toBe(true);
  });

  it('maps each node to its service, and each service to its nodes', () => {
    expect(NODE_SERVICE).toEqual({
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
      interview: 'searcher',
      outline: 'writer',
      draft: 'writer',
      verify: 'verifier',
      repair: 'writer',
      frame: 'writer',
      render: 'renderer',
    });
    expect(nodesOfService('claims')).toEqual(['claims', 'contradictions', 'coverage', 'moderate']);
    expect(nodesOfService('renderer')).toEqual(['render']);
  });

  it('derives the fan-out set from the rows, as a value and as a type', () => {
    expect([...FANOUT_NODES]).toEqual(['retrieve', 'extract', 'interview', 'draft', 'verify']);
    expect(NODE_NAMES.filter((n) => isFanoutNode(n))).toEqual([...FANOUT_NODES]);
    const fanout: Equal<FanoutNode, 'retrieve' | 'extract' | 'interview' | 'draft' | 'verify'> = true;
    expect(fanout).toBe(true);
  });

  it('derives the step-job union: shards only for fan-out nodes, ids only, nothing else', () => {
    const base = { tenantId: TENANT, runId: RUN, iteration: 1 };
    for (const node of NODE_NAMES) expect(StepJob.safeParse({ ...base, node, shard: 0 }).success).toBe(true);
    expect(StepJob.safeParse({ ...base, node: 'extract', shard: 4 }).success).toBe(true);
    expect(StepJob.safeParse({ ...base, node: 'claims', shard: 4 }).success).toBe(false);
    expect(StepJob.safeParse({ ...base, node: 'summarize', shard: 0 }).success).toBe(false);
    expect(StepJob.safeParse({ ...base, node: 'claims', shard: 0, extra: 1 }).success).toBe(false);
    // Types: a single-step node's shard is the literal 0, a fan-out node's any number.
    const single: Equal<StepJobOf<'claims'>['shard'], 0> = true;
    const sharded: Equal<StepJobOf<'verify'>['shard'], number> = true;
    expect([single, sharded]).toEqual([true, true]);
  });

  it('derives the result schemas and their types from the rows', () => {
    expect(Object.keys(NODE_RESULT_SCHEMAS)).toEqual([...NODE_NAMES]);
    for (const node of NODE_NAMES) expect(NODE_RESULT_SCHEMAS[node]).toBe(NODES.rows[node].result);
    expect(NODE_RESULT_SCHEMAS.verify.parse({ checked: 3, failing: 1 })).toEqual({ checked: 3, failing: 1 });
    expect(NODE_RESULT_SCHEMAS.verify.safeParse({ checked: 3 }).success).toBe(false);
    const moderate: Equal<
      NodeResultOf<'moderate'>,
      { informationGain: number; openQuestions: number; addedQuestions?: number | undefined }
    > = true;
    expect(moderate).toBe(true);
  });

  it('counts fan-outs only by fields that are always numbers', () => {
    const moderate: Equal<CountField<NodeResultOf<'moderate'>>, 'informationGain' | 'openQuestions'> = true;
    const outline: Equal<CountField<NodeResultOf<'outline'>>, 'sections'> = true;
    const mixed: Equal<CountField<{ n: number; s: string; o?: number }>, 'n'> = true;
    expect([moderate, outline, mixed]).toEqual([true, true, true]);
  });

  it('names the roles each node uses (nodes without an agent name none)', () => {
    expect(NODES.rows.repair.roles).toEqual(['repairer', 'verifier']);
    expect(NODES.rows.render.roles).toEqual([]);
    expect(NODES.rows.interview.roles).toEqual(['interviewAnalyst', 'evidenceCurator', 'interviewExpert']);
    expect(NODES.roles()).toHaveLength(16);
  });
});

describe('extending a table (a test, or a next version, declares more nodes without editing this one)', () => {
  const extended = NODES.extend({
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

  it('adds the row and everything derived from it, leaving the core table alone', () => {
    expect(extended.names).toEqual([...NODE_NAMES, 'annotate']);
    expect(extended.service.annotate).toBe('claims');
    expect(extended.fanout).toEqual([...FANOUT_NODES, 'annotate']);
    expect(extended.nodesOf('claims')).toEqual(['claims', 'contradictions', 'coverage', 'moderate', 'annotate']);
    expect(extended.stepJob.safeParse({ tenantId: TENANT, runId: RUN, iteration: 0, node: 'annotate', shard: 2 }).success).toBe(true);
    expect(StepJob.safeParse({ tenantId: TENANT, runId: RUN, iteration: 0, node: 'annotate', shard: 2 }).success).toBe(false);
    // Shared rows are the same declarations, not copies.
    expect(extended.rows.claims).toBe(NODES.rows.claims);
    expect(NODES.has('annotate')).toBe(false);
    expect(extended.has('annotate')).toBe(true);
  });

  it('refuses a node that is already declared', () => {
    const again = {
      claims: {
        label: 'Test claims',
        phase: 'research',
        description: 'a test node',
        service: 'claims',
        fanout: false,
        roles: [],
        result: z.strictObject({ claims: count }),
      },
    } as const;
    // @ts-expect-error a node is declared once: `claims` is in the core table
    expect(() => NODES.extend(again)).toThrow(new NodeTableError('node(s) claims are already declared'));
  });

  it('refuses rows that would break step keys, queues or results', () => {
    const row = {
      label: 'Row',
      phase: 'research',
      description: 'a test node',
      service: 'claims',
      fanout: false,
      roles: [],
      result: z.strictObject({ n: count }),
    } as const;
    expect(() => nodeTable({ 'bad.name': row })).toThrow(/lower_snake_case/);
    expect(() => nodeTable({ Upper: row })).toThrow(/lower_snake_case/);
    // @ts-expect-error not a service
    expect(() => nodeTable({ ok: { ...row, service: 'mailer' } })).toThrow(/unknown service mailer/);
    // @ts-expect-error a result is a zod object
    expect(() => nodeTable({ ok: { ...row, result: z.number() } })).toThrow(/must be a zod object/);
    expect(() => nodeTable({})).toThrow(/at least one node/);
    // What people read of a node is declared with it: the web app, the CLI and the docs read it from here.
    expect(() => nodeTable({ ok: { ...row, label: ' ' } })).toThrow(/needs a label and a description/);
    // @ts-expect-error not a phase
    expect(() => nodeTable({ ok: { ...row, phase: 'later' } })).toThrow(/unknown phase later/);
  });
});

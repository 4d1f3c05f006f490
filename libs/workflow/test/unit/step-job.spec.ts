import { FANOUT_NODES, isFanoutNode, NODE_NAMES, parseStepKey, StepJob, stepKey, type NodeName, type StepRef } from '@dossier/contracts';

const TENANT = '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b';
const RUN = '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a';

const job = (over: Record<string, unknown> = {}) => ({ tenantId: TENANT, runId: RUN, node: 'scope', iteration: 0, shard: 0, ...over });
const SINGLE_NODES = NODE_NAMES.filter((n) => !(FANOUT_NODES as readonly NodeName[]).includes(n));

function issuesOf(value: unknown): string[] {
  const parsed = StepJob.safeParse(value);
  expect(parsed.success).toBe(false);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`);
}

describe('StepJob', () => {
  it('fan-out nodes are retrieve, extract, interview, draft, verify', () => {
    expect([...FANOUT_NODES]).toEqual(['retrieve', 'extract', 'interview', 'draft', 'verify']);
    expect(isFanoutNode('retrieve')).toBe(true);
    expect(isFanoutNode('scope')).toBe(false);
  });

  it.each(NODE_NAMES.map((n) => [n]))('accepts a valid %s job at shard 0', (node) => {
    const parsed = StepJob.parse(job({ node, iteration: 2 }));
    expect(parsed).toEqual(job({ node, iteration: 2 }));
  });

  it.each(FANOUT_NODES.map((n) => [n]))('accepts a %s fan-out job at shard 7, with a trace carrier', (node) => {
    const value = job({ node, iteration: 1, shard: 7, trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    expect(StepJob.parse(value)).toEqual(value);
  });

  it('rejects an unknown node', () => {
    const issues = issuesOf(job({ node: 'summarize' }));
    expect(issues.some((i) => i.startsWith('node:'))).toBe(true);
  });

  it.each(SINGLE_NODES.map((n) => [n]))('rejects a non-zero shard on single-step node %s', (node) => {
    expect(issuesOf(job({ node, shard: 1 }))).toEqual(['shard: invalid_value']);
  });

  it('rejects extra fields (strict)', () => {
    expect(issuesOf(job({ question: 'why?' }))).toEqual([': unrecognized_keys']);
    expect(issuesOf(job({ node: 'retrieve', shard: 2, result: {} }))).toEqual([': unrecognized_keys']);
  });

  it('rejects a missing tenantId', () => {
    const noTenant: Record<string, unknown> = job();
    delete noTenant.tenantId;
    expect(issuesOf(noTenant)).toEqual(['tenantId: invalid_type']);
  });

  it('rejects ids that are not uuids', () => {
    expect(issuesOf(job({ tenantId: 'acme' }))).toEqual(['tenantId: invalid_format']);
    expect(issuesOf(job({ runId: 'run-1' }))).toEqual(['runId: invalid_format']);
  });

  it.each([
    ['negative iteration', { iteration: -1 }, 'iteration'],
    ['fractional iteration', { iteration: 1.5 }, 'iteration'],
    ['iteration as a string', { iteration: '1' }, 'iteration'],
    ['iteration above the bound', { iteration: 10_001 }, 'iteration'],
    ['negative fan-out shard', { node: 'extract', shard: -1 }, 'shard'],
    ['fan-out shard above the bound', { node: 'draft', shard: 100_001 }, 'shard'],
    ['a non-string trace value', { trace: { traceparent: 1 } }, 'trace'],
  ])('rejects %s', (_what, over, field) => {
    const issues = issuesOf(job(over));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((i) => i.startsWith(field))).toBe(true);
  });

  it('rejects non-objects', () => {
    for (const v of [null, undefined, 'scope', 42, []]) expect(StepJob.safeParse(v).success).toBe(false);
  });
});

describe('stepKey / parseStepKey', () => {
  const refs: StepRef[] = [
    { runId: RUN, node: 'scope', iteration: 0, shard: 0 },
    { runId: RUN, node: 'retrieve', iteration: 3, shard: 41 },
    { runId: RUN, node: 'source_policy', iteration: 12, shard: 0 },
    { runId: RUN, node: 'verify', iteration: 2, shard: 100_000 },
  ];

  it.each(refs)('round-trips $node.$iteration.$shard', (ref) => {
    const key = stepKey(ref);
    expect(key).toBe(`${ref.runId}.${ref.node}.${ref.iteration}.${ref.shard}`);
    expect(key).not.toContain(':');
    expect(parseStepKey(key)).toEqual(ref);
  });

  it('round-trips every node', () => {
    for (const node of NODE_NAMES) {
      const ref = { runId: RUN, node, iteration: 1, shard: 0 };
      const key = stepKey(ref);
      expect(key).not.toContain(':');
      expect(parseStepKey(key)).toEqual(ref);
    }
  });

  it('ignores the trace and tenant of a full job', () => {
    const full = StepJob.parse(job({ node: 'extract', iteration: 1, shard: 3, trace: { traceparent: 'x' } }));
    expect(stepKey(full)).toBe(`${RUN}.extract.1.3`);
  });

  it('distinct steps have distinct keys', () => {
    const keys = new Set<string>();
    for (const node of NODE_NAMES)
      for (let iteration = 0; iteration < 3; iteration++)
        for (let shard = 0; shard < 3; shard++) keys.add(stepKey({ runId: RUN, node, iteration, shard }));
    expect(keys.size).toBe(NODE_NAMES.length * 9);
  });

  it('parseStepKey rejects a key naming an unknown node', () => {
    expect(() => parseStepKey(`${RUN}.summarize.0.0`)).toThrow();
  });
});

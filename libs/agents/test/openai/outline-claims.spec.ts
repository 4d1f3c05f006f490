import type { FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner } from '../../src/agent-runner';
import { outlineArchitect } from '../../src/roles';
import { MemoryAgentStore } from '../fixtures/memory-agent-store';
import { startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

const CTX = { tenantId: '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b', runId: '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a', stepKey: 'run.outline.0.0' };

describe('outlines carry claims (decision 0040)', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('an outline whose sections cite no claim: one repair request, then the call is played offline with every section citing claims', async () => {
    server = await startFakeLlm({ misbehaviour: { kind: 'outline_without_claims', rate: 1 } });
    const store = new MemoryAgentStore();
    const traced = await new AgentRunner(store, { engine: testEngine(server) }).runTraced(
      outlineArchitect,
      ROLE_INPUTS.outlineArchitect,
      CTX,
    );
    expect(server.counts.chatRequests).toBe(2);
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/section 1 \(".*"\) uses no claim/);
    expect(traced.plays.map((p) => p.engine)).toEqual(['offline']);
    expect(traced.output.sections.length).toBeGreaterThan(0);
    for (const s of traced.output.sections) expect(s.claimIds.length).toBeGreaterThan(0);
    expect(store.calls.map((c) => [c.engine, c.outcome])).toEqual([
      ['openai', 'invalid'],
      ['openai', 'invalid'],
      ['offline', 'ok'],
    ]);
  });

  it('a section without claims beside sections with them is left out after the repair request; the rest stands', async () => {
    server = await startFakeLlm();
    const good = outlineArchitect.offline(ROLE_INPUTS.outlineArchitect);
    const withEmpty = { sections: [...good.sections, { title: 'Further context', purpose: 'More.', claimIds: [] }] };
    server.script('outlineArchitect', { kind: 'json', value: withEmpty }, { kind: 'json', value: withEmpty });
    const out = await new AgentRunner(new MemoryAgentStore(), { engine: testEngine(server) }).run(
      outlineArchitect,
      ROLE_INPUTS.outlineArchitect,
      CTX,
    );
    expect(out.sections.map((s) => s.title)).toEqual(good.sections.map((s) => s.title));
  });
});

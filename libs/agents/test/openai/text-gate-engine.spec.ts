import type { FakeOpenAIServer } from '@dossier/testing';
import { sectionWriter } from '../../src/roles';
import { leakedText } from '../../src/writing/model-text';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

describe('the text gate on model answers (decision 0041)', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('leaked text goes to the one repair request; still there after it, it is dropped and counted on the row', async () => {
    server = await startFakeLlm({ misbehaviour: { kind: 'leaky_text', rate: 1, seed: 'gate' } });
    const hooks = memoryHooks();
    const done = await testEngine(server).complete(sectionWriter, ROLE_INPUTS.sectionWriter, hooks);
    expect(server.counts.chatRequests).toBe(2);
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/write complete prose sentences only/);
    const sentences = done.output.paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(sentences.length).toBeGreaterThan(0);
    for (const s of sentences) expect(leakedText(s)).toBeNull();
    const notes = hooks.records.at(-1)!.notes;
    const dropped = (notes?.hygiene?.leaked ?? 0) + (notes?.hygiene?.duplicates ?? 0) + (notes?.hygiene?.fragments ?? 0);
    expect(dropped).toBeGreaterThan(0);
  });
});

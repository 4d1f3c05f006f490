import type { FakeOpenAIServer } from '@dossier/testing';
import { shortenIds } from '../../src/openai/short-ids';
import { sectionWriter } from '../../src/roles';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';

const U = (n: number) => `0000000${n}-1111-4222-8333-444444444444`;

describe('short ids in prompts', () => {
  it('aliases uuids by what they name and maps a reply back', () => {
    const input = {
      claims: [{ id: U(1), evidenceIds: [U(2), U(3)] }],
      evidence: [{ id: U(2) }, { id: U(3) }],
      questionId: U(4),
      title: 'x',
    };
    const ids = shortenIds(input);
    expect(ids.input).toEqual({
      claims: [{ id: 'C1', evidenceIds: ['E1', 'E2'] }],
      evidence: [{ id: 'E1' }, { id: 'E2' }],
      questionId: 'Q1',
      title: 'x',
    });
    expect(ids.restore({ sentences: [{ text: 'E1 stays in text? no: only exact strings', evidenceIds: ['E2', 'E9'] }] })).toEqual({
      sentences: [{ text: 'E1 stays in text? no: only exact strings', evidenceIds: [U(3), 'E9'] }],
    });
  });

  describe('through the engine', () => {
    let server: FakeOpenAIServer;
    beforeAll(async () => {
      server = await startFakeLlm();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('the writer sees and cites [E1]-style ids; the caller gets its uuids back', async () => {
      const input = {
        section: { title: 'Opening', purpose: 'When it opened' },
        claims: [{ id: U(1), statement: 'The bridge opened to traffic on 27 May 1937.', evidenceIds: [U(2)] }],
        evidence: [{ id: U(2), excerpt: 'The bridge opened to traffic on 27 May 1937.' }],
      };
      const done = await testEngine(server).complete(sectionWriter, input, memoryHooks());
      const prompt = server.requests[0]!.body.messages.map((m) => m.content).join('\n');
      expect(prompt).not.toContain(U(2));
      expect(prompt).toContain('[E1] The bridge opened');
      expect(done.output.paragraphs[0]!.sentences[0]!.evidenceIds).toEqual([U(2)]);
    });
  });
});

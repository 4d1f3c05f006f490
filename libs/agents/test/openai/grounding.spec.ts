import type { FakeOpenAIServer } from '@dossier/testing';
import { locateExcerpt } from '../../src/roles/grounding';
import { evidenceCurator, sectionWriter } from '../../src/roles';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

describe('model answers are grounded in their input', () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeLlm();
  });
  afterEach(async () => {
    await server?.stop();
  });

  it('locates excerpts exactly (nearest the hint) or across reflowed whitespace; refuses paraphrase', () => {
    const text = 'Alpha beta.\nGamma delta epsilon. Alpha beta.';
    expect(locateExcerpt(text, 'Alpha beta.', 30)).toEqual({ start: 33, end: 44 });
    expect(locateExcerpt(text, 'beta. Gamma delta')).toEqual({ start: 6, end: 23 });
    expect(locateExcerpt(text, 'Gamma and delta')).toBeNull();
  });

  it('evidence excerpts take their offsets from the source; a passage that is not verbatim is dropped', async () => {
    const input = ROLE_INPUTS.evidenceCurator;
    const text = input.source.text;
    const real = text.slice(text.indexOf('The'), text.indexOf('.', text.indexOf('The')) + 1);
    server.script('evidenceCurator', {
      kind: 'json',
      value: {
        fragments: [
          { start: 0, end: 3, excerpt: real, statement: real, questionId: null, confidence: 0.9 },
          {
            start: 5,
            end: 40,
            excerpt: 'A sentence the model made up about the bridge.',
            statement: 'x',
            questionId: null,
            confidence: 0.5,
          },
        ],
      },
    });
    const done = await testEngine(server).complete(evidenceCurator, input, memoryHooks());
    expect(done.output.fragments).toHaveLength(1);
    const f = done.output.fragments[0]!;
    expect(text.slice(f.start, f.end)).toBe(real);
    expect(f.excerpt).toBe(real);
  });

  it('a passage its source flags as unsupported is no evidence: a verbatim "[citation needed]" excerpt is dropped, not asked again', async () => {
    const real = 'The Golden Gate Bridge opened in 1937.';
    const flagged = 'Its cables were found free of corrosion in 2021.[citation needed]';
    const dubious = 'The bridge carries 112,000 vehicles a day.[dubious – discuss]';
    const input = {
      ...ROLE_INPUTS.evidenceCurator,
      source: { ...ROLE_INPUTS.evidenceCurator.source, text: `${real} ${flagged} ${dubious}` },
    };
    const fragment = (excerpt: string) => ({ start: 0, end: 1, excerpt, statement: excerpt, questionId: null, confidence: 0.9 });
    server.script('evidenceCurator', { kind: 'json', value: { fragments: [fragment(flagged), fragment(real), fragment(dubious)] } });
    const done = await testEngine(server).complete(evidenceCurator, input, memoryHooks());
    expect(done.output.fragments.map((f) => f.excerpt)).toEqual([real]);
    expect(server.counts.chatRequests).toBe(1);
    // Asked not to choose them in the first place.
    expect(JSON.stringify(server.requests[0]!.body.messages)).toMatch(/\[citation needed\]/);
  });

  it('only invented excerpts: the model is asked again, told to copy exactly', async () => {
    server.script('evidenceCurator', {
      kind: 'json',
      value: {
        fragments: [{ start: 0, end: 10, excerpt: 'Nothing like this is in the source.', statement: 'x', questionId: null, confidence: 1 }],
      },
    });
    await testEngine(server).complete(evidenceCurator, ROLE_INPUTS.evidenceCurator, memoryHooks());
    expect(server.counts.chatRequests).toBe(2);
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(
      /none of the 1 excerpts is a verbatim passage of the source text: copy excerpts exactly/,
    );
  });

  it('a sentence citing evidence it was not given, or a URL, is sent back for repair', async () => {
    server.script(
      'sectionWriter',
      { kind: 'json', value: { paragraphs: [{ sentences: [{ text: 'The bridge opened in 1937.', evidenceIds: ['E99'] }] }] } },
      {
        kind: 'json',
        value: { paragraphs: [{ sentences: [{ text: 'See https://example.com for the opening date.', evidenceIds: ['E1'] }] }] },
      },
    );
    const err = await testEngine(server)
      .complete(sectionWriter, ROLE_INPUTS.sectionWriter, memoryHooks())
      .catch((e: unknown) => e);
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/cites evidence ids that were not given: E99/);
    expect((err as Error).message).toMatch(/contains a URL/);
  });
});

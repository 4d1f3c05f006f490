import type { FakeOpenAIServer } from '@dossier/testing';
import { planBatches } from '../../src/writing/batch-section';
import { countTokens } from '../../src/openai/tokens';
import { sectionWriter, type SectionWriterInput } from '../../src/roles';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';

function longSection(claims: number): SectionWriterInput {
  const filler = 'The reservoir level was measured every week by the regional water authority and reported in its annual review.';
  return {
    section: { title: 'Water levels', purpose: 'What was measured' },
    claims: Array.from({ length: claims }, (_, i) => ({
      id: `C${i}`,
      statement: `Measurement ${i} showed a level of ${100 + i} metres.`,
      evidenceIds: [`E${i}`],
    })),
    evidence: Array.from({ length: claims }, (_, i) => ({
      id: `E${i}`,
      excerpt: `Measurement ${i} showed a level of ${100 + i} metres. ${filler.repeat(4)}`,
    })),
  };
}

describe('long sections are drafted in batches counted in o200k_base tokens', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeLlm();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('plans batches within the budget, claims in order, none split', () => {
    const input = longSection(12);
    const batches = planBatches(input, 400);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.flat().map((c) => c.id)).toEqual(input.claims.map((c) => c.id));
    for (const b of batches) {
      const tokens = b.reduce(
        (n, c) => n + countTokens(c.statement) + countTokens(input.evidence.find((e) => e.id === c.evidenceIds[0])!.excerpt) + 4,
        0,
      );
      expect(b.length === 1 || tokens <= 400).toBe(true);
    }
  });

  it('each part sees what came before and is told not to repeat it; the last closes the section', async () => {
    const input = longSection(12);
    const engine = testEngine(server, { OPENAI_WRITER_BATCH_TOKENS: '400' });
    const done = await engine.complete(sectionWriter, input, memoryHooks());
    const parts = server.requests.filter((r) => r.role === 'sectionWriter');
    expect(parts.length).toBe(planBatches(input, 400).length);
    // The part's instructions are this call's: in the user message, so the system prompt stays the role's own (decision 0036).
    expect(new Set(parts.map((p) => p.body.messages[0]!.content)).size).toBe(1);
    const users = parts.map((p) => p.body.messages[1]!.content!);
    expect(users[0]).toMatch(/This is part 1 of \d+ of the section.*Do not repeat anything in it/);
    expect(users[0]).toMatch(/More parts follow: do not close the section yet/);
    expect(users.at(-1)).toMatch(/This is the last part: end with a sentence that closes the section/);
    // The second part's "written so far" block holds the first part's sentences.
    const firstSentences = (parts[0]!.input as SectionWriterInput).claims.map((c) => c.statement);
    expect(parts[1]!.body.messages[1]!.content).toContain(`<<<DATA written so far>>>\n${firstSentences[0]}`);
    // Every part's evidence fits the budget (the request carries only that part's evidence).
    for (const p of parts) expect((p.input as SectionWriterInput).evidence.length).toBeLessThan(input.evidence.length);
    const sentences = done.output.paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(sentences).toEqual(input.claims.map((c) => c.statement));
    expect(done.tokensIn).toBe(server.counts.promptTokens);
  });

  it('claims that share evidence stay in one part, so no excerpt is sent twice', () => {
    const input = longSection(12);
    // C9 cites E1 too, and C10 cites E9: C1, C9 and C10 belong together.
    input.claims[9]!.evidenceIds.push('E1');
    input.claims[10]!.evidenceIds.push('E9');
    const batches = planBatches(input, 400);
    expect(batches.length).toBeGreaterThan(2);
    const together = batches.find((b) => b.some((c) => c.id === 'C1'))!;
    expect(together.map((c) => c.id)).toEqual(expect.arrayContaining(['C1', 'C9', 'C10']));
    const sent = batches.flatMap((b) => [...new Set(b.flatMap((c) => c.evidenceIds))]);
    expect(sent.length).toBe(new Set(sent).size);
    expect(
      batches
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(input.claims.map((c) => c.id).sort());
  });

  it('a section that fits is one request', async () => {
    const before = server.counts.chatRequests;
    await testEngine(server).complete(sectionWriter, longSection(2), memoryHooks());
    expect(server.counts.chatRequests - before).toBe(1);
  });
});

import { classifyError } from '@dossier/errors';
import type { FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner } from '../../src/agent-runner';
import { ContextWindowError } from '../../src/errors';
import { openAIConfigFromEnv } from '../../src/openai/openai-config';
import { contextOverflow, outputRoom } from '../../src/openai/request-size';
import { countMessageTokens } from '../../src/openai/tokens';
import { counterEvidence, coverageAssessor, director, evidenceCurator, outlineArchitect, verifier } from '../../src/roles';
import { MIN_FITTED_CLAIMS } from '../../src/roles/outline-architect';
import { MemoryAgentStore } from '../fixtures/memory-agent-store';
import { memoryHooks, offlineAnswer, startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { CLAIMS, QUESTIONS, ROLE_INPUTS } from '../fixtures/role-inputs';

const BASE = { OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'local-model' };
const CTX = { tenantId: '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b', runId: '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a', stepKey: 'run.verify.0.0' };

/** Prompt tokens of a recorded request, counted as the server counts them. */
function promptOf(server: FakeOpenAIServer, i: number): number {
  return countMessageTokens(server.requests[i]!.body.messages.map((m) => ({ content: m.content ?? '' })));
}

describe('context windows: settings', () => {
  it('per role, then OPENAI_CONTEXT_TOKENS, then the known model, then 8,192; each names the variable that set it', () => {
    const c = openAIConfigFromEnv({ ...BASE, OPENAI_MODEL_VERIFIER: 'gpt-4o-mini', OPENAI_MODEL_FRAMER: 'openai/gpt-4.1-mini' });
    expect(c.windows.director).toMatchObject({ contextTokens: 8192, maxOutputTokens: 16_384, outputSetting: 'OPENAI_MAX_OUTPUT_TOKENS' });
    expect(c.windows.director.contextSetting).toMatch(/^OPENAI_CONTEXT_TOKENS \(unset; 8192 assumed for local-model\)/);
    expect(c.windows.verifier.contextTokens).toBe(128_000);
    expect(c.windows.framer.contextTokens).toBe(1_047_576);
    const set = openAIConfigFromEnv({
      ...BASE,
      OPENAI_CONTEXT_TOKENS: '32768',
      OPENAI_CONTEXT_TOKENS_VERIFIER: '4096',
      OPENAI_MAX_OUTPUT_TOKENS_VERIFIER: '1024',
    });
    expect(set.windows.director).toMatchObject({ contextTokens: 32_768, contextSetting: 'OPENAI_CONTEXT_TOKENS' });
    expect(set.windows.verifier).toEqual({
      contextTokens: 4096,
      contextSetting: 'OPENAI_CONTEXT_TOKENS_VERIFIER',
      maxOutputTokens: 1024,
      outputSetting: 'OPENAI_MAX_OUTPUT_TOKENS_VERIFIER',
    });
  });

  it('refuses a window that is no number, by name', () => {
    expect(() => openAIConfigFromEnv({ ...BASE, OPENAI_CONTEXT_TOKENS_SECTION_WRITER: 'big' })).toThrow(
      /OPENAI_CONTEXT_TOKENS_SECTION_WRITER/,
    );
    expect(() => openAIConfigFromEnv({ ...BASE, OPENAI_CONTEXT_TOKENS: '12' })).toThrow(/OPENAI_CONTEXT_TOKENS/);
  });

  it('max_tokens is what the window leaves beside the prompt, at most the cap, never under the minimum', () => {
    expect(outputRoom(1000, 8192, 16_384)).toBe(8192 - 1000 - (64 + 50));
    expect(outputRoom(1000, 128_000, 4096)).toBe(4096);
    expect(outputRoom(7900, 8192, 16_384)).toBeNull();
  });

  it('reads the window and the prompt from the size refusals of OpenAI, vLLM, llama.cpp and Anthropic-style proxies', () => {
    const v = (status: number, message: string) => ({ retryable: false, retryAfterMs: undefined, type: String(status), status, message });
    expect(
      contextOverflow(
        v(
          400,
          "This model's maximum context length is 8192 tokens. However, you requested 16976 tokens (592 in the messages, 16384 in the completion).",
        ),
      ),
    ).toEqual({ contextTokens: 8192, promptTokens: 592 });
    expect(
      contextOverflow(
        v(
          400,
          "'max_tokens' or 'max_completion_tokens' is too large: 16384. This model's maximum context length is 8192 tokens and your request has 600 input tokens (16384 > 8192 - 600).",
        ),
      ),
    ).toEqual({ contextTokens: 8192, promptTokens: 600 });
    expect(contextOverflow(v(400, 'the request exceeds the available context size, try increasing it'))).toEqual({
      contextTokens: undefined,
      promptTokens: undefined,
    });
    expect(contextOverflow(v(400, 'prompt is too long: 210000 tokens > 200000 maximum'))).toEqual({
      contextTokens: 200_000,
      promptTokens: 210_000,
    });
    expect(contextOverflow(v(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported"))).toBeNull();
    expect(contextOverflow(v(500, 'maximum context length is 8192 tokens'))).toBeNull();
  });
});

describe('context windows: requests sized against a server that enforces its window', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('an 8k server: max_tokens fits beside the prompt, so the first request is answered', async () => {
    server = await startFakeLlm({ contextTokens: 8192 });
    const hooks = memoryHooks();
    const done = await testEngine(server).complete(director, ROLE_INPUTS.director, hooks);
    expect(done.output).toEqual(director.offline(ROLE_INPUTS.director));
    expect(server.counts).toMatchObject({ chatRequests: 1, sizeRefusals: 0 });
    const maxTokens = server.requests[0]!.body.max_tokens!;
    expect(maxTokens).toBeLessThan(16_384);
    expect(promptOf(server, 0) + maxTokens).toBeLessThanOrEqual(8192);
  });

  it('a server whose window is smaller than the setting: its 400 shrinks the request, which is sent once more and answered', async () => {
    server = await startFakeLlm({ contextTokens: 2048 });
    const hooks = memoryHooks();
    const done = await testEngine(server, { OPENAI_CONTEXT_TOKENS: '8192' }).complete(director, ROLE_INPUTS.director, hooks);
    expect(done.output).toEqual(director.offline(ROLE_INPUTS.director));
    expect(server.counts).toMatchObject({ chatRequests: 2, sizeRefusals: 1 });
    expect(hooks.records.map((r) => r.outcome)).toEqual(['error', 'ok']);
    expect(hooks.records[0]!.error).toMatch(/maximum context length is 2048/);
    expect(promptOf(server, 1) + server.requests[1]!.body.max_tokens!).toBeLessThanOrEqual(2048);
  });

  it('a llama.cpp server that names no window: the request is shrunk all the same', async () => {
    server = await startFakeLlm({ contextTokens: 4096, contextStyle: 'llamacpp' });
    const hooks = memoryHooks();
    await testEngine(server, { OPENAI_CONTEXT_TOKENS: '16384' }).complete(director, ROLE_INPUTS.director, hooks);
    // Half the assumed window (at most 8,192) on each refusal: 16,384 → 8,192 (still too large) → 4,096.
    expect(hooks.records.map((r) => r.outcome)).toEqual(['error', 'error', 'ok']);
    expect(server.counts.sizeRefusals).toBe(2);
    expect(promptOf(server, 2) + server.requests[2]!.body.max_tokens!).toBeLessThanOrEqual(4096);
  });

  it('a source too long for the window is read in parts, each request fitting; offsets stay those of the whole text', async () => {
    server = await startFakeLlm({ contextTokens: 1400 });
    const text = Array.from({ length: 12 }, (_, i) => `${ROLE_INPUTS.evidenceCurator.source.text}\n\nPart ${i + 1} ends here.`).join(
      '\n\n',
    );
    const input = { ...ROLE_INPUTS.evidenceCurator, source: { ...ROLE_INPUTS.evidenceCurator.source, text }, maxFragments: 12 };
    const done = await testEngine(server, { OPENAI_CONTEXT_TOKENS: '1400' }).complete(evidenceCurator, input, memoryHooks());
    expect(server.counts.chatRequests).toBeGreaterThan(1);
    expect(server.counts.sizeRefusals).toBe(0);
    expect(done.output.fragments.length).toBeGreaterThan(0);
    expect(done.output.fragments.length).toBeLessThanOrEqual(12);
    for (const f of done.output.fragments) expect(text.slice(f.start, f.end)).toBe(f.excerpt);
    // The later parts' fragments are found there, not only in the first part.
    expect(Math.max(...done.output.fragments.map((f) => f.start))).toBeGreaterThan(text.length / 2);
  });

  it('an outline over more claims than the window holds: the claims that answer the question least are left out until it fits (0150)', async () => {
    server = await startFakeLlm({ contextTokens: 2048 });
    const base = ROLE_INPUTS.outlineArchitect;
    // Forty claims off the question (the Golden Gate Bridge) and the fixture's claims, which answer it.
    const filler = Array.from({ length: 40 }, (_, i) => ({
      id: `X${i + 1}`,
      statement: `The ferry timetable for route ${i + 1} lists departures from the harbour at seven, nine and eleven in the summer season.`,
      questionId: null,
    }));
    const input = { ...base, claims: [...filler.slice(0, 20), ...base.claims, ...filler.slice(20)] };
    const done = await testEngine(server, { OPENAI_CONTEXT_TOKENS: '2048' }).complete(outlineArchitect, input, memoryHooks());
    expect(server.counts).toMatchObject({ chatRequests: 1, sizeRefusals: 0 });
    const sent = server.requests[0]!.body.messages.map((m) => m.content ?? '').join('\n');
    expect(promptOf(server, 0) + server.requests[0]!.body.max_tokens!).toBeLessThanOrEqual(2048);
    // Every claim that answers the question was kept; some of the timetable's were left out.
    for (const c of base.claims) expect(sent).toContain(c.statement);
    expect(filler.filter((c) => sent.includes(c.statement)).length).toBeLessThan(filler.length);
    const used = done.output.sections.flatMap((s) => s.claimIds);
    expect(used.length).toBeGreaterThan(0);
    for (const id of used) expect(input.claims.map((c) => c.id)).toContain(id);
  });

  it('an outline that still does not fit with the fewest claims it may keep: a typed error naming the setting (0150)', async () => {
    server = await startFakeLlm();
    const base = ROLE_INPUTS.outlineArchitect;
    expect(base.claims.length).toBeLessThanOrEqual(MIN_FITTED_CLAIMS);
    const err = await testEngine(server, { OPENAI_CONTEXT_TOKENS: '600' })
      .complete(outlineArchitect, base, memoryHooks())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextWindowError);
    expect((err as Error).message).toMatch(/outlineArchitect request .* raise OPENAI_CONTEXT_TOKENS/);
    expect(server.counts.chatRequests).toBe(0);
  });

  it('a window too small for any prompt: a typed error naming the setting, before a single request', async () => {
    server = await startFakeLlm();
    const err = await testEngine(server, { OPENAI_CONTEXT_TOKENS: '400' })
      .complete(director, ROLE_INPUTS.director, memoryHooks())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextWindowError);
    expect((err as Error).message).toMatch(/raise OPENAI_CONTEXT_TOKENS/);
    expect(classifyError(err)).toBe('unrecoverable');
    expect(server.counts.chatRequests).toBe(0);
  });
});

describe('verification in halves: an answer with the wrong number of findings', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('is asked again in halves, down to what the model can count, never played offline', async () => {
    server = await startFakeLlm({ misbehaviour: { kind: 'careful_verifier', rate: 1, carefulLimit: 1 } });
    const store = new MemoryAgentStore();
    const runner = new AgentRunner(store, { engine: testEngine(server) });
    const input = {
      sentences: [
        ...ROLE_INPUTS.verifier.sentences.filter((s) => s.evidence.length > 0),
        { ...ROLE_INPUTS.verifier.sentences[0]!, text: 'The Golden Gate Bridge opened to traffic in May 1937.' },
      ],
    };
    const traced = await runner.runTraced(verifier, input, CTX);
    expect(traced.output.findings).toHaveLength(4);
    expect(traced.output.findings).toEqual(verifier.offline(input).findings);
    expect(traced.plays.map((p) => [p.engine, p.input.sentences.length])).toEqual([
      ['openai', 1],
      ['openai', 1],
      ['openai', 1],
      ['openai', 1],
    ]);
    // 4 → 2 + 2 → 1 + 1 + 1 + 1: seven requests, none a repair request, none offline.
    expect(server.requests.map((r) => (r.input as { sentences: unknown[] }).sentences.length)).toEqual([4, 2, 1, 1, 2, 1, 1]);
    expect(store.calls.filter((c) => c.engine === 'offline')).toEqual([]);
    expect(store.calls.filter((c) => c.notes?.repairRequest)).toEqual([]);
    expect(store.calls.filter((c) => c.notes?.gaveUp === 'parts')).toHaveLength(3);
  });
});

describe('coverage in parts (decision 0115): a request larger than the window', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  type Coverage = { questionId: string; score: number; informationGain: number };
  type CoverageInput = Parameters<typeof coverageAssessor.offline>[0];
  const WINDOW = { OPENAI_CONTEXT_TOKENS: '2048' };
  // Many claims, those that answer Q1 and Q2 among them: the claims are the bulk, so they are halved.
  const input: CoverageInput = {
    questions: QUESTIONS,
    claims: Array.from({ length: 48 }, (_, i) => {
      const c = CLAIMS[i % CLAIMS.length]!;
      return { id: `C${i + 1}`, statement: `${c.statement} Reported in the survey of ${1950 + i}, section ${i + 1}.` };
    }),
    previous: { Q1: 0.2, Q2: 0.9 },
  };
  const coverageRequests = (s: FakeOpenAIServer) => s.requests.filter((r) => r.role === 'coverageAssessor');

  it('is split into requests that fit; every question is scored once with the best score its parts gave, gains against the previous scores', async () => {
    server = await startFakeLlm({ contextTokens: 2048 });
    const runner = new AgentRunner(new MemoryAgentStore(), { engine: testEngine(server, WINDOW) });
    const out = await runner.run(coverageAssessor, input, CTX);
    const sent = coverageRequests(server);
    expect(sent.length).toBeGreaterThan(1);
    expect(server.counts.sizeRefusals).toBe(0);
    for (let i = 0; i < server.requests.length; i++)
      expect(promptOf(server, i) + server.requests[i]!.body.max_tokens!).toBeLessThanOrEqual(2048);
    // Every claim was shown once, each part scored every question.
    const shown = sent.flatMap((r) => (r.input as CoverageInput).claims.map((c) => c.id));
    expect(shown.sort()).toEqual(input.claims.map((c) => c.id).sort());
    const answers = sent.map((r) => (offlineAnswer(r) as { coverage: Coverage[] }).coverage);
    expect(out.coverage.map((c) => c.questionId)).toEqual(['Q0', 'Q1', 'Q2', 'Q3']);
    for (const c of out.coverage) {
      const best = Math.max(...answers.map((a) => a.find((x) => x.questionId === c.questionId)!.score));
      expect(c.score).toBe(best);
      expect(c.informationGain).toBeCloseTo(Math.max(0, c.score - ((input.previous as Record<string, number>)[c.questionId] ?? 0)), 3);
    }
    expect(out.informationGain).toBeCloseTo(out.coverage.reduce((s, c) => s + c.informationGain, 0) / 4, 3);
    // The cost question is answered by its claims; the painters' safety record by none.
    const score = (id: string) => out.coverage.find((c) => c.questionId === id)!.score;
    expect(score('Q2')).toBeGreaterThan(0.5);
    expect(score('Q3')).toBeLessThan(score('Q2'));
  });

  it('many questions and few claims: the questions are halved, each part scores only its own', async () => {
    server = await startFakeLlm({ contextTokens: 2048 });
    const questions = Array.from({ length: 40 }, (_, i) => ({
      id: `Q${i}`,
      text: `${QUESTIONS[i % QUESTIONS.length]!.text.replace(/\?$/, '')} according to the records of district ${i + 1}, and how were they checked?`,
    }));
    const few: CoverageInput = { questions, claims: input.claims.slice(0, 3), previous: {} };
    const out = await new AgentRunner(new MemoryAgentStore(), { engine: testEngine(server, WINDOW) }).run(coverageAssessor, few, CTX);
    const sent = coverageRequests(server);
    expect(sent.length).toBeGreaterThan(1);
    const asked = sent.flatMap((r) => (r.input as CoverageInput).questions.map((q) => q.id));
    expect(asked).toEqual(questions.map((q) => q.id));
    expect(out.coverage.map((c) => c.questionId)).toEqual(questions.map((q) => q.id));
  });

  it('a model that names an unknown question and leaves one out: the call completes with what is right, nothing offline', async () => {
    // Each part's answer: its first question renamed to one it was not given, its last left out (also in the repair).
    const wrong = (request: Parameters<typeof offlineAnswer>[0]) => {
      const answer = offlineAnswer(request) as { coverage: Coverage[]; informationGain: number };
      if (request.role !== 'coverageAssessor') return answer;
      const [first, ...rest] = answer.coverage;
      return { ...answer, coverage: [{ ...first!, questionId: 'Q99' }, ...rest.slice(0, -1)] };
    };
    server = await startFakeLlm({ contextTokens: 2048, answer: wrong });
    const store = new MemoryAgentStore();
    const out = await new AgentRunner(store, { engine: testEngine(server, WINDOW) }).run(coverageAssessor, input, CTX);
    expect(coverageRequests(server).length).toBeGreaterThan(1);
    // Q99 was given to no part; Q0 (renamed) and Q3 (left out) were scored by no part: Q1 and Q2 are.
    expect(out.coverage.map((c) => c.questionId)).toEqual(['Q1', 'Q2']);
    expect(out.coverage.find((c) => c.questionId === 'Q2')!.score).toBeGreaterThan(0.5);
    expect(store.calls.filter((c) => c.engine === 'offline')).toEqual([]);
    expect(store.calls.filter((c) => c.outcome === 'ok' && (c.notes?.droppedIds ?? 0) > 0).length).toBeGreaterThan(0);
  });
});

describe('contradiction checks in parts: more candidate pairs than the window holds', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server?.stop();
  });

  type CounterInput = Parameters<typeof counterEvidence.offline>[0];
  type Found = { claimAId: string; claimBId: string; kind: string; note: string };
  const WINDOW = { OPENAI_CONTEXT_TOKENS: '2048' };
  // 24 districts, each with an opening date and a cost claim; two of three districts' sources give another year.
  const claims: CounterInput['claims'] = Array.from({ length: 24 }, (_, i) => [
    { id: `A${i}`, statement: `The Golden Gate Bridge opened to traffic on 27 May 1937, according to the records of district ${i + 1}.` },
    {
      id: `B${i}`,
      statement: `The Golden Gate Bridge opened to traffic in ${i % 3 === 0 ? 1937 : 1936}, according to the records of district ${i + 1}.`,
    },
    { id: `K${i}`, statement: `The construction cost was $35 million, according to the records of district ${i + 1}.` },
  ]).flat();
  const pairs: [string, string][] = Array.from({ length: 24 }, (_, i): [string, string][] => [
    [`A${i}`, `B${i}`],
    [`A${i}`, `K${i}`],
  ]).flat();
  const input: CounterInput = { claims, candidatePairs: pairs };
  const key = (c: Found) => [c.claimAId, c.claimBId].sort().join(' ');
  const sent = (s: FakeOpenAIServer) => s.requests.filter((r) => r.role === 'counterEvidence');

  it('is sent in requests that fit, each pair once with the claims it names; the contradictions are those of the whole', async () => {
    const whole = counterEvidence.offline(input).contradictions;
    expect(whole.length).toBe(16);
    server = await startFakeLlm({ contextTokens: 2048 });
    const store = new MemoryAgentStore();
    const out = await new AgentRunner(store, { engine: testEngine(server, WINDOW) }).run(counterEvidence, input, CTX);
    const requests = sent(server);
    expect(requests.length).toBeGreaterThan(1);
    expect(server.counts.sizeRefusals).toBe(0);
    for (let i = 0; i < server.requests.length; i++)
      expect(promptOf(server, i) + server.requests[i]!.body.max_tokens!).toBeLessThanOrEqual(2048);
    const asked = requests.flatMap((r) => (r.input as CounterInput).candidatePairs.map(([a, b]) => `${a} ${b}`));
    expect(asked).toEqual(pairs.map(([a, b]) => `${a} ${b}`));
    for (const r of requests) {
      const part = r.input as CounterInput;
      expect(new Set(part.claims.map((c) => c.id))).toEqual(new Set(part.candidatePairs.flat()));
    }
    expect(out.contradictions.map(key).sort()).toEqual(whole.map(key).sort());
    expect(store.calls.filter((c) => c.engine === 'offline')).toEqual([]);
  });

  it('a model that names a pair of another part and repeats one: each contradiction once, only between claims it was given', async () => {
    // Each part's answer adds a pair from outside the part (A0/B0 is the first part's only) and repeats its first finding.
    const wrong = (request: Parameters<typeof offlineAnswer>[0]) => {
      const answer = offlineAnswer(request) as { contradictions: Found[] };
      if (request.role !== 'counterEvidence' || answer.contradictions.length === 0) return answer;
      const first = answer.contradictions[0]!;
      const flipped = { ...first, claimAId: first.claimBId, claimBId: first.claimAId };
      return { contradictions: [...answer.contradictions, flipped, { ...first, claimAId: 'A23', claimBId: 'B1' }] };
    };
    server = await startFakeLlm({ contextTokens: 2048, answer: wrong });
    const out = await new AgentRunner(new MemoryAgentStore(), { engine: testEngine(server, WINDOW) }).run(counterEvidence, input, CTX);
    const whole = counterEvidence.offline(input).contradictions;
    expect(out.contradictions.map(key).sort()).toEqual(whole.map(key).sort());
  });
});

import { buildReport, type ReportInputs } from '../src/render/report-builder';
import { llmUsage } from '../src/render/usage-metrics';

function inputs(run: Partial<ReportInputs['run']>, metrics: Partial<ReportInputs['metrics']> = {}): ReportInputs {
  return {
    run: {
      id: 'r',
      question: 'Q?',
      status: 'completed',
      engine: 'openai',
      createdAt: new Date(0),
      stopReason: null,
      providers: ['corpus'],
      ...run,
    },
    intro: [],
    conclusion: [],
    sections: [],
    claims: [],
    contradictions: [],
    evidence: [],
    snapshots: [],
    records: [],
    openQuestions: [],
    metrics: { iterations: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0, searches: 0, sourcesFetched: 0, ...metrics },
    verification: { rounds: 0 },
  };
}

const VERIFIED = { checked: 12, failedByGuard: 1, failedByJudge: 0, repaired: 0, removed: 1 };

function method(i: ReportInputs): string {
  return buildReport(i)
    .sections.find((s) => s.kind === 'method')!
    .paragraphs[0]!.sentences.map((s) => s.text)
    .join(' ');
}

describe('the method section names the budget that ended research', () => {
  it.each([
    ['tokens', 'the token budget ran out'],
    ['cost', 'the cost budget ran out'],
    ['wall_time', 'the wall-time budget ran out'],
  ])('%s', (budget, text) => {
    expect(method(inputs({ stopReason: 'budget_exhausted', budgetExhausted: budget }))).toContain(`research stopped because ${text}`);
  });

  it('iterations: maxIterations is the iterations budget', () => {
    expect(method(inputs({ stopReason: 'max_iterations', maxIterations: 3 }))).toContain(
      'research stopped because the iterations budget (3) was used up',
    );
  });

  it('the engine line gives the models, requests and the calls that went offline after the budget', () => {
    const usage = (calls: number) => ({ calls, tokensIn: 10 * calls, tokensOut: calls, costUsd: 0.001 * calls });
    const text = method(
      inputs(
        { stopReason: 'budget_exhausted', budgetExhausted: 'tokens' },
        {
          budgetExhausted: 'tokens',
          byModel: { 'gpt-x': usage(4), 'offline-nlp-1': usage(3) },
          byEngine: { openai: usage(4), offline: usage(3) },
        },
      ),
    );
    expect(text).toMatch(
      /^Engine: openai \(gpt-x\); 4 model requests, 40 prompt and 4 completion tokens, \$0\.0040; after the token budget ran out, 3 further calls used the offline engine instead of the model\./,
    );
  });

  it('gives the model tokens per verified sentence (model engines only), in the metrics and the engine line', () => {
    const usage = (calls: number) => ({ calls, tokensIn: 100 * calls, tokensOut: 10 * calls, costUsd: 0.001 * calls });
    const withIntro = (engine: string): ReportInputs => ({
      ...inputs(
        { engine },
        { byModel: { 'gpt-x': usage(4), 'offline-nlp-1': usage(2) }, byEngine: { openai: usage(4), offline: usage(2) } },
      ),
      intro: [1, 2, 3].map((n) => ({ text: `Framing sentence ${n}.`, evidenceIds: [] })),
    });
    const report = buildReport(withIntro('openai'));
    // 440 model tokens (the offline engine's 220 are words of CPU work, not tokens) over 3 sentences.
    expect(report.metrics.verifiedSentences).toBe(3);
    expect(report.metrics.tokensPerVerifiedSentence).toBe(146.7);
    expect(method(withIntro('openai'))).toContain(
      '4 model requests, 400 prompt and 40 completion tokens, $0.0040 (146.7 tokens per verified sentence, 3 sentences)',
    );
    const offline = buildReport(withIntro('offline'));
    // Every format's three figures come from here (decision 0086): uncited framing sentences are in the report, not supported.
    const checked = buildReport({ ...withIntro('offline'), metrics: { ...withIntro('offline').metrics, verification: VERIFIED } });
    expect(checked.metrics.verification).toMatchObject({ checked: 12, sentences: 3, supported: 0, rounds: 0 });
    expect(method({ ...withIntro('offline'), metrics: { ...withIntro('offline').metrics, verification: VERIFIED } })).toContain(
      'Sentences in the report: 3; supported by their cited passages: 0 (the other 3 frame the report and cite nothing',
    );
    expect(offline.metrics.verifiedSentences).toBe(3);
    expect(offline.metrics.tokensPerVerifiedSentence).toBeUndefined();
  });

  it('names what verification did, how the model output was handled, and keeps unusable-answer fallbacks apart from the budget', () => {
    const usage = (calls: number) => ({ calls, tokensIn: 10 * calls, tokensOut: calls, costUsd: 0.001 * calls });
    const text = method(
      inputs(
        { stopReason: 'budget_exhausted', budgetExhausted: 'tokens' },
        {
          budgetExhausted: 'tokens',
          byModel: { 'gpt-x': usage(4), 'offline-nlp-1': usage(5) },
          byEngine: { openai: usage(4), offline: usage(5) },
          verification: { checked: 40, failedByGuard: 5, failedByJudge: 7, repaired: 6, removed: 3 },
          modelOutput: {
            locallyRepaired: 4,
            repairRequests: 3,
            trimmed: 2,
            droppedIds: 1,
            skipped: { counterEvidence: 1 },
            offline: { claimBuilder: 2 },
          },
        },
      ),
    );
    expect(text).toContain('after the token budget ran out, 3 further calls used the offline engine');
    expect(text).toContain(
      'Verification: checks made: 40, in every round, of the body, introduction, conclusion and disagreements, each by a deterministic guard (figures, dates, units, names, negations) and by the verifier; 5 failed the guard, 7 the verifier; 6 sentences were repaired and 3 removed',
    );
    // No sentence in this report: the figures say so rather than repeat the checks (decision 0086).
    expect(text).toContain('Sentences in the report: 0; supported by their cited passages: 0.');
    expect(text).toContain(
      'Model output: 4 answers mended locally (fences, prose, truncated JSON, enum case, extra keys, null lists); 3 repair requests; 2 values trimmed to their limits; 1 unknown or wrong-kind ids dropped; optional roles skipped for a step: counterEvidence ×1; required roles played by the offline engine for one call: claimBuilder ×2.',
    );
  });
});

describe('honest counts (decision 0040)', () => {
  const group = (role: string, engine: string, calls: number, tokens: number) => ({
    role,
    model: engine === 'offline' ? 'offline-nlp-1' : 'gpt-x',
    engine,
    _count: { _all: calls },
    _sum: { tokensIn: tokens, tokensOut: tokens, costUsd: engine === 'offline' ? 0 : 0.01 },
  });

  it('model requests and their tokens apart from offline plays, which count no tokens', () => {
    const usage = llmUsage([
      group('verifier', 'openai', 5, 100),
      group('claimBuilder', 'offline', 2, 700),
      group('verifier', 'offline', 1, 50),
    ]);
    expect(usage.total).toMatchObject({ llmCalls: 5, modelRequests: 5, tokensIn: 100, tokensOut: 100 });
    expect(usage.total.offlinePlays).toEqual({ total: 3, byRole: { claimBuilder: 2, verifier: 1 } });
    expect(usage.byRole).toEqual({ verifier: { calls: 5, tokensIn: 100, tokensOut: 100, costUsd: 0.01 } });
    expect(usage.byEngine['offline']).toEqual({ calls: 3, tokensIn: 0, tokensOut: 0, costUsd: 0 });
  });

  it('an offline run: no model request, no tokens', () => {
    const usage = llmUsage([group('director', 'offline', 1, 30), group('evidenceCurator', 'offline', 40, 54_000)]);
    expect(usage.total).toMatchObject({ llmCalls: 0, modelRequests: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
    expect(usage.total.offlinePlays.total).toBe(41);
  });
});

describe('the text gate over the whole report (decision 0041)', () => {
  const evidence = (id: string, excerpt: string) =>
    ({
      id,
      excerpt,
      snapshotId: 'snap',
      start: 0,
      end: excerpt.length,
      statement: excerpt,
      questionId: null,
    }) as unknown as ReportInputs['evidence'][number];
  const finding = 'The water level of Lake Varen fell by about 2.1 metres between 2019 and 2024.';

  function modelRun(engine: string): ReportInputs {
    return {
      ...inputs({ engine }, { hygiene: { leaked: 0, duplicates: 0, fragments: 0, dropped: { leaked: 2, duplicates: 0, fragments: 1 } } }),
      evidence: [evidence('e1', 'The gauge log shows the level fell 2.1 m from 2019 to 2024.'), evidence('e2', 'Abstraction doubled.')],
      snapshots: [{ id: 'snap', url: 'https://example.org', title: 'Log', contentHash: 'h', fetchedAt: new Date(0) }],
      sections: [
        { sectionId: 's1', title: 'Q1 How large was the decline', paragraphs: [{ sentences: [{ text: finding, evidenceIds: ['e1'] }] }] },
        {
          sectionId: 's2',
          title: 'Causes',
          paragraphs: [
            {
              sentences: [
                { text: `${finding.slice(0, -1)} [E2].`, evidenceIds: ['e1'] },
                { text: finding.toUpperCase(), evidenceIds: ['e1'] },
                { text: 'Abstraction doubled.', evidenceIds: ['e2'] },
              ],
            },
          ],
        },
      ],
    };
  }

  it('a model run: repeats across sections and leaked sentences are dropped, headings cleaned, counted; none remain', () => {
    const report = buildReport(modelRun('openai'));
    const body = report.sections.filter((s) => s.kind === 'body');
    expect(body.map((s) => s.title)).toEqual(['How large was the decline', 'Causes']);
    expect(body.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)))).toEqual([finding, 'Abstraction doubled.']);
    // Dropped: 2 leaked and 1 fragment in the answers (the notes), then a leaked heading, a leaked sentence, a repeat.
    expect(report.metrics.hygiene).toEqual({ leaked: 0, duplicates: 0, fragments: 0, dropped: { leaked: 4, duplicates: 1, fragments: 1 } });
    expect(report.sections.find((s) => s.kind === 'method')!.paragraphs[0]!.sentences.map((s) => s.text)).toContain(
      'Text hygiene: the gate on model text removed or cleaned 4 sentences, headings or questions that carried prompt markers, ids, instructions or JSON, 1 repeated sentences and 1 fragments; none remain in this report.',
    );
  });

  it('an offline run is extractive: left as it is, no hygiene figures', () => {
    const offline = modelRun('offline');
    const { hygiene: _none, ...metrics } = offline.metrics;
    const report = buildReport({ ...offline, metrics });
    expect(report.metrics.hygiene).toBeUndefined();
    // Titles as they were (no text gate); the first section's one sentence joins its neighbour (decision 0089).
    const body = report.sections.filter((s) => s.kind === 'body');
    expect(body.map((s) => s.title)).toEqual(['Causes']);
    expect(body[0]!.paragraphs[0]!.sentences.map((s) => s.text)).toEqual([finding]);
  });
});

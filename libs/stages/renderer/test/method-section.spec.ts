import { buildReport, type ReportInputs } from '../src/render/report-builder';

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
    verification: { checked: 0, supported: 0, rounds: 0 },
  };
}

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
      /^Engine: openai \(gpt-x\); 4 model requests, 44 tokens, \$0\.0040; after the token budget ran out, 3 further calls used the offline engine instead of the model\./,
    );
  });
});

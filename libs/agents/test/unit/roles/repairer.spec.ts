import { repairer, type RepairSentence } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.repairer;
const first = base.sentences[0]!;
const one = (sentence: Partial<RepairSentence>, evidence = base.evidence) =>
  repairer.offline({ sentences: [{ ...first, ...sentence }], evidence }).fixes[0];

describe('repairer (offline)', () => {
  it('rewrites to the best-supporting evidence sentence, verbatim', () => {
    // E2 words it "…27 May 1937, after four years of work.": not the same sentence, so not cited.
    expect(repairer.offline(base)).toEqual({
      fixes: [{ action: 'rewrite', text: 'The Golden Gate Bridge opened to traffic on 27 May 1937.', evidenceIds: ['E1'] }],
    });
  });

  it('cites every excerpt that holds the rewritten sentence', () => {
    const evidence = [...base.evidence, { id: 'E9', excerpt: 'Records agree. The Golden Gate Bridge opened to traffic on 27 May 1937.' }];
    expect(one({}, evidence)).toMatchObject({ action: 'rewrite', evidenceIds: ['E1', 'E9'] });
  });

  it('rewrites a contradicted sentence to what the evidence says', () => {
    const out = one({
      text: 'The construction cost was $50 million.',
      evidenceIds: ['E3'],
      finding: { verdict: 'contradicted', note: 'number' },
    });
    expect(out).toEqual({ action: 'rewrite', text: base.evidence[2]!.excerpt, evidenceIds: ['E3'] });
  });

  it('can use uncited evidence for an uncited sentence', () => {
    const out = one({ text: 'The main span is 1,280 metres long.', evidenceIds: [], finding: { verdict: 'uncited', note: '' } });
    expect(out).toMatchObject({ action: 'rewrite', evidenceIds: ['E4'] });
  });

  it('drops a sentence no evidence supports', () => {
    expect(one({ text: 'Painters use 38 tons of orange paint every year.', evidenceIds: ['E1'] })).toEqual({ action: 'drop' });
    expect(one({}, [])).toEqual({ action: 'drop' });
  });

  it('answers several sentences in one call, one fix each, in order', () => {
    const out = repairer.offline({
      sentences: [
        first,
        { ...first, text: 'Painters use 38 tons of orange paint every year.' },
        { ...first, text: 'The main span is 1,280 metres long.', evidenceIds: [] },
      ],
      evidence: base.evidence,
    });
    expect(out.fixes.map((f) => f.action)).toEqual(['rewrite', 'drop', 'rewrite']);
  });

  it('a model answer with a fix missing is refused, and a fix citing an unknown id loses it', () => {
    const two = { sentences: [first, first], evidence: base.evidence };
    expect(repairer.check!(two, { fixes: [{ action: 'drop' }] }).cleaned).toBeNull();
    const checked = repairer.check!(base, { fixes: [{ action: 'rewrite', text: 'It opened in 1937.', evidenceIds: ['E77'] }] });
    expect(checked.issues.join(' ')).toMatch(/E77/);
    expect(checked.cleaned).toEqual({ fixes: [{ action: 'drop' }] });
  });

  it('lists each excerpt once in its prompt, however many sentences cite it', () => {
    const prompt = repairer.prompt({ sentences: [first, first, first], evidence: base.evidence });
    expect(prompt.user.split(base.evidence[0]!.excerpt).length - 1).toBe(1);
  });
});

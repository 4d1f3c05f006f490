import { repairer } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.repairer;

describe('repairer (offline)', () => {
  it('rewrites to the best-supporting evidence sentence, verbatim', () => {
    // E2 words it "…27 May 1937, after four years of work.": not the same sentence, so not cited.
    expect(repairer.offline(base)).toEqual({
      action: 'rewrite',
      text: 'The Golden Gate Bridge opened to traffic on 27 May 1937.',
      evidenceIds: ['E1'],
    });
  });

  it('cites every excerpt that holds the rewritten sentence', () => {
    const evidence = [...base.evidence, { id: 'E9', excerpt: 'Records agree. The Golden Gate Bridge opened to traffic on 27 May 1937.' }];
    expect(repairer.offline({ ...base, evidence })).toMatchObject({ action: 'rewrite', evidenceIds: ['E1', 'E9'] });
  });

  it('rewrites a contradicted sentence to what the evidence says', () => {
    const out = repairer.offline({
      ...base,
      sentence: { text: 'The construction cost was $50 million.', evidenceIds: ['E3'] },
      finding: { verdict: 'contradicted', note: 'number' },
    });
    expect(out).toEqual({ action: 'rewrite', text: base.evidence[2]!.excerpt, evidenceIds: ['E3'] });
  });

  it('can use uncited evidence for an uncited sentence', () => {
    const out = repairer.offline({
      ...base,
      sentence: { text: 'The main span is 1,280 metres long.', evidenceIds: [] },
      finding: { verdict: 'uncited', note: '' },
    });
    expect(out).toMatchObject({ action: 'rewrite', evidenceIds: ['E4'] });
  });

  it('drops a sentence no evidence supports', () => {
    const out = repairer.offline({ ...base, sentence: { text: 'Painters use 38 tons of orange paint every year.', evidenceIds: ['E1'] } });
    expect(out).toEqual({ action: 'drop' });
    expect(repairer.offline({ ...base, evidence: [] })).toEqual({ action: 'drop' });
  });
});

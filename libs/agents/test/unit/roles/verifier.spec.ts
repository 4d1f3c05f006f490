import { verifier } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

describe('verifier (offline)', () => {
  it('returns one finding per sentence, in order', () => {
    const { findings } = verifier.offline(ROLE_INPUTS.verifier);
    expect(findings.map((f) => f.verdict)).toEqual(['supported', 'contradicted', 'unsupported', 'uncited']);
  });

  it('gives an extractive sentence score 1 and an uncited one score 0', () => {
    const { findings } = verifier.offline(ROLE_INPUTS.verifier);
    expect(findings[0]!.score).toBe(1);
    expect(findings[3]).toEqual({ verdict: 'uncited', score: 0, note: 'the sentence cites no evidence' });
  });

  it('explains a contradiction concretely', () => {
    expect(verifier.offline(ROLE_INPUTS.verifier).findings[1]!.note).toBe('date: 1936 vs 27 May 1937');
  });

  it('handles no sentences', () => {
    expect(verifier.offline({ sentences: [] })).toEqual({ findings: [] });
  });
});

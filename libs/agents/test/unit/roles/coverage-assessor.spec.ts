import { coverageAssessor } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.coverageAssessor;

describe('coverageAssessor (offline)', () => {
  const out = coverageAssessor.offline(base);
  const score = (id: string) => out.coverage.find((c) => c.questionId === id)!;

  it('scores every question once, in order, within [0, 1]', () => {
    expect(out.coverage.map((c) => c.questionId)).toEqual(base.questions.map((q) => q.id));
    for (const c of out.coverage) {
      expect(c.score).toBeGreaterThanOrEqual(0);
      expect(c.score).toBeLessThanOrEqual(1);
    }
  });

  it('scores answered questions above unanswered ones', () => {
    expect(score('Q2').score).toBeGreaterThan(0.5);
    expect(score('Q3').score).toBeLessThan(score('Q2').score);
  });

  it('computes gain against the previous scores', () => {
    expect(score('Q1').informationGain).toBeCloseTo(Math.max(0, score('Q1').score - 0.2), 3);
    expect(score('Q2').informationGain).toBe(score('Q2').score);
    const mean = out.coverage.reduce((s, c) => s + c.informationGain, 0) / out.coverage.length;
    expect(out.informationGain).toBeCloseTo(mean, 3);
  });

  it('reports no gain when nothing improved', () => {
    const previous = Object.fromEntries(out.coverage.map((c) => [c.questionId, c.score]));
    const again = coverageAssessor.offline({ ...base, previous });
    expect(again.informationGain).toBe(0);
    expect(again.coverage.every((c) => c.informationGain === 0)).toBe(true);
  });

  it('never reports negative gain', () => {
    const previous = Object.fromEntries(base.questions.map((q) => [q.id, 1]));
    expect(coverageAssessor.offline({ ...base, previous }).coverage.every((c) => c.informationGain === 0)).toBe(true);
  });

  it('gives zero coverage without claims and handles no questions', () => {
    expect(coverageAssessor.offline({ ...base, claims: [] }).coverage.every((c) => c.score === 0)).toBe(true);
    expect(coverageAssessor.offline({ ...base, questions: [] })).toEqual({ coverage: [], informationGain: 0 });
  });

  it('rejects duplicate question ids and previous scores outside [0, 1]', () => {
    expect(coverageAssessor.input.safeParse({ ...base, questions: [base.questions[0], base.questions[0]] }).success).toBe(false);
    expect(coverageAssessor.input.safeParse({ ...base, previous: { Q1: 2 } }).success).toBe(false);
  });
});

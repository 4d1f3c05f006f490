import { framer } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.framer;

describe('framer (offline)', () => {
  const out = framer.offline(base);

  it('writes a 2–3 sentence introduction without citations that states the question and scope', () => {
    expect(out.introduction.length).toBeGreaterThanOrEqual(2);
    expect(out.introduction.length).toBeLessThanOrEqual(3);
    expect(out.introduction.every((s) => s.evidenceIds.length === 0)).toBe(true);
    expect(out.introduction[0]!.text).toContain(base.question);
    expect(out.introduction[1]!.text).toBe('It is organised in 2 sections: Construction and Cost.');
    expect(out.introduction[2]!.text).toContain('added little new information');
    expect(out.introduction[2]!.text).toContain('1 question still open');
  });

  it('concludes with the most central cited sentence of each section, verbatim and re-cited', () => {
    expect(out.conclusion).toEqual([
      { text: 'The bridge opened to traffic after construction began in 1933.', evidenceIds: ['E1', 'E7'] },
      { text: 'The construction cost was $35 million, financed by bonds approved by voters in 1930.', evidenceIds: ['E3'] },
    ]);
  });

  it.each([
    ['budget_exhausted', 'budget ran out'],
    ['max_iterations', 'maximum number of research iterations'],
    ['sufficient', 'sufficiently covered'],
    ['operator asked', 'for this reason: operator asked'],
  ])('explains the stop reason %s', (stopReason, phrase) => {
    expect(framer.offline({ ...base, stopReason }).introduction[2]!.text).toContain(phrase);
  });

  it('handles a report with no written sections', () => {
    const empty = framer.offline({ ...base, sections: [], openQuestions: [] });
    expect(empty.conclusion).toEqual([]);
    expect(empty.introduction[1]!.text).toBe('The evidence gathered did not support any section of findings.');
  });

  it('states a narrowed scope (run interventions) in the first sentence, still with no citation', () => {
    const scoped = framer.offline({ ...base, scope: ['Only the years 2015 to 2024.', 'Costs  in dollars'] });
    expect(scoped.introduction).toHaveLength(out.introduction.length);
    expect(scoped.introduction[0]!.text).toMatch(
      / Its scope was narrowed during research to: Only the years 2015 to 2024; Costs in dollars\.$/,
    );
    expect(scoped.introduction.every((s) => s.evidenceIds.length === 0)).toBe(true);
    expect(out.introduction[0]!.text).not.toMatch(/narrowed/);
  });
});

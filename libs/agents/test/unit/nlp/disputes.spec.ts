import { opposedStatements, opposingPairs } from '../../../src/offline/nlp/disputes';
import { detectContradiction } from '../../../src/offline/nlp/contradiction';

describe('opposedStatements: two statements that say opposite things about the same subject (decision 0087)', () => {
  const began = 'The year-on-year decline began in the first full year of large-scale canal operation.';
  const before = 'The decline started before large-scale irrigation.';

  it('an onset placed on both sides of the same event, which the contradiction rules do not pair', () => {
    expect(detectContradiction(began, before)).toBeNull();
    expect(opposedStatements(began, before)).toBe(true);
    expect(opposedStatements(before, began)).toBe(true);
  });

  it('the contradiction rules still count: a different figure for the same quantity, opposite polarity', () => {
    expect(opposedStatements('Lake Varen has lost 18% of its surface area.', 'Lake Varen has lost 27% of its surface area.')).toBe(true);
    expect(
      opposedStatements('Irrigation withdrawals caused the decline.', 'Irrigation withdrawals did not cause the decline of Lake Varen.'),
    ).toBe(true);
  });

  it.each([
    ['the same side of the event', 'The decline began with large-scale irrigation.', began],
    [
      'another subject',
      'Irrigation started before large-scale canal operation.',
      'The decline began in the first year of the canal operation.',
    ],
    ['another event', 'The decline started before the drought.', began],
    ['an onset with no event to place it against', 'The decline started in 2015.', before],
    ['no onset at all', 'The lake is shallow.', before],
  ])('not opposed: %s', (_, a, b) => {
    expect(opposedStatements(a, b)).toBe(false);
  });

  it('opposingPairs: every opposed pair of a list, by index', () => {
    expect(opposingPairs([began, 'The lake is shallow.', before, 'The decline began with large-scale irrigation.'])).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });
});

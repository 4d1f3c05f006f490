import { statesStatement } from '../../../src/offline/nlp/states-statement';

describe('statesStatement: a sentence that states a claim, inside a longer sentence too', () => {
  const claim = 'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.';

  it.each([
    ['The water level of Lake Varen fell by 6.1 metres between 2015 and 2024, from a spring maximum of 213.3 m.', true],
    ['Between 2015 and 2024 the water level of Lake Varen fell by 6.1 metres.', true],
    // Another figure is another position.
    ['The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.', false],
    // The figure alone, about something else, is not the claim.
    ['The panel counted 6.1 percent more anglers between 2015 and 2024.', false],
  ])('%s → %s', (sentence, expected) => {
    expect(statesStatement(sentence, claim)).toBe(expected);
  });

  it('a measured figure carries most of the claim: fewer shared words suffice than for a claim without one', () => {
    const attributed =
      'The authority’s annual-mean series shows that the water level of Lake Varen fell by 4.2 metres between 2015 and 2024.';
    expect(
      statesStatement(
        'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024, according to the annual report published on Friday.',
        attributed,
      ),
    ).toBe(true);
    // Without a measured figure (years only), three quarters of the words are needed.
    const dated = 'Irrigation withdrawals from Lake Varen began to rise sharply in 2015.';
    expect(statesStatement('Withdrawals from the lake rose in 2015.', dated)).toBe(false);
    expect(statesStatement('In 2015, irrigation withdrawals from Lake Varen began to rise sharply.', dated)).toBe(true);
  });

  it('states nothing for a statement without content words', () => {
    expect(statesStatement('It was 2015.', 'In 2015.')).toBe(false);
  });
});

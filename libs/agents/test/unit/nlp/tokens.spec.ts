import { contentStems, contentWords, isNumericToken, stem, STOPWORDS, tokenize } from '../../../src/offline/nlp/tokens';

describe('tokenize', () => {
  it('lower-cases words and keeps numbers whole', () => {
    expect(tokenize('The Bridge cost $1,200.75 in 2020, up 3.5%!')).toEqual([
      'the',
      'bridge',
      'cost',
      '1,200.75',
      'in',
      '2020',
      'up',
      '3.5',
    ]);
  });

  it('handles unicode letters and contractions', () => {
    expect(tokenize('Über Café didn’t close; naïve São Paulo')).toEqual(['über', 'café', "didn't", 'close', 'naïve', 'são', 'paulo']);
  });

  it('splits on hyphens and slashes and drops possessive s', () => {
    expect(tokenize("COVID-19 and/or the bridge's span")).toEqual(['covid', '19', 'and', 'or', 'the', 'bridge', 'span']);
  });

  it('returns an empty list for punctuation only', () => {
    expect(tokenize('... -- !!')).toEqual([]);
  });
});

describe('stopwords and content words', () => {
  it('contains function words and negations', () => {
    for (const w of ['the', 'and', 'of', 'what', 'not', 'never', "didn't"]) expect(STOPWORDS.has(w)).toBe(true);
    expect(STOPWORDS.has('bridge')).toBe(false);
  });

  it('keeps content words and numbers', () => {
    expect(contentWords('What is the height of the Eiffel Tower in 2020?')).toEqual(['height', 'eiffel', 'tower', '2020']);
  });

  it('stems content words', () => {
    expect(contentStems('Measured heights of towers')).toEqual(['measur', 'height', 'tower']);
  });

  it('recognises numeric tokens', () => {
    expect(isNumericToken('1,200.75')).toBe(true);
    expect(isNumericToken('v2')).toBe(false);
  });
});

describe('stem (Porter)', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'ti'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['conflated', 'conflat'],
    ['troubled', 'troubl'],
    ['sized', 'size'],
    ['hopping', 'hop'],
    ['falling', 'fall'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['rational', 'ration'],
    ['digitizer', 'digit'],
    ['generalization', 'gener'],
    ['operator', 'oper'],
    ['hopefulness', 'hope'],
    ['sensitiviti', 'sensit'],
    ['triplicate', 'triplic'],
    ['electrical', 'electr'],
    ['goodness', 'good'],
    ['revival', 'reviv'],
    ['allowance', 'allow'],
    ['adjustable', 'adjust'],
    ['replacement', 'replac'],
    ['adoption', 'adopt'],
    ['effective', 'effect'],
    ['probate', 'probat'],
    ['rate', 'rate'],
    ['controll', 'control'],
    ['roll', 'roll'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('conflates inflections', () => {
    expect(stem('measured')).toBe(stem('measures'));
    expect(stem('measurement')).toBe(stem('measuring'));
  });

  it('leaves short words, numbers and non-ascii words alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('2020')).toBe('2020');
    expect(stem('café')).toBe('café');
    expect(stem('Towers')).toBe('tower');
  });
});

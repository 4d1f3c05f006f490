import { extractKeyphrases } from '../../../src/offline/nlp/keyphrases';

describe('extractKeyphrases (RAKE)', () => {
  const text =
    'Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility of a system of linear Diophantine equations, strict inequations, and nonstrict inequations are considered.';

  it('ranks multi-word content phrases first', () => {
    const phrases = extractKeyphrases(text, 3).map((k) => k.phrase);
    expect(phrases[0]).toBe('linear diophantine equations');
    expect(phrases).toContain('linear constraints');
  });

  it('returns scores in descending order and respects the limit', () => {
    const result = extractKeyphrases(text, 5);
    expect(result).toHaveLength(5);
    for (let i = 1; i < result.length; i++) expect(result[i - 1]!.score).toBeGreaterThanOrEqual(result[i]!.score);
  });

  it('splits phrases at stopwords, numbers and punctuation', () => {
    const phrases = extractKeyphrases('How tall is the Eiffel Tower in 2020, and who built it?', 10).map((k) => k.phrase);
    expect(phrases).toEqual(['eiffel tower', 'tall', 'built']);
  });

  it('deduplicates repeated phrases', () => {
    const phrases = extractKeyphrases('Solar power. Solar power grows. Wind.', 10).map((k) => k.phrase);
    expect(phrases.filter((p) => p === 'solar power')).toHaveLength(1);
  });

  it('honours extra stopwords', () => {
    const phrases = extractKeyphrases('What figures quantify bridge costs?', 5, { extraStopwords: new Set(['figures', 'quantify']) });
    expect(phrases.map((k) => k.phrase)).toEqual(['bridge costs']);
  });

  it('returns nothing for stopword-only text or a zero limit', () => {
    expect(extractKeyphrases('what is it and why', 5)).toEqual([]);
    expect(extractKeyphrases(text, 0)).toEqual([]);
  });

  it('is deterministic', () => {
    expect(extractKeyphrases(text, 10)).toEqual(extractKeyphrases(text, 10));
  });
});

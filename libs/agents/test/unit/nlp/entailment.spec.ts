import { entails } from '../../../src/offline/nlp/entailment';

describe('entails', () => {
  it('supports a sentence that is a premise, with score 1', () => {
    expect(entails('The bridge opened in 1937.', ['The bridge opened in 1937.'])).toMatchObject({ verdict: 'supported', score: 1 });
  });

  it('supports a sentence contained in a longer excerpt, ignoring whitespace and citation markers', () => {
    const r = entails('The bridge opened  in 1937. [E12]', ['History. The bridge opened\nin 1937. It is red.']);
    expect(r).toMatchObject({ verdict: 'supported', score: 1 });
  });

  it('supports a paraphrase whose words and figures are all in the evidence', () => {
    const r = entails('In 1937 the bridge opened.', ['The bridge opened in 1937.']);
    expect(r.verdict).toBe('supported');
    expect(r.score).toBe(1);
  });

  it('matches figures after unit conversion', () => {
    expect(entails('The wall is 4.2 metres high.', ['Records say the wall is 13.8 feet high.']).verdict).toBe('supported');
  });

  it('combines support across premises', () => {
    const r = entails('The tower is 330 m tall and was built in 1889.', ['The tower is 330 m tall.', 'It was built in 1889.']);
    expect(r.verdict).toBe('supported');
  });

  it('rejects a sentence whose figure is not in the evidence', () => {
    const r = entails('The tower is 330 m tall and was built in 1890.', ['The tower is 330 m tall.', 'It was built in 1889.']);
    expect(r.verdict).toBe('unsupported');
    expect(r.note).toContain('1890');
    expect(r.score).toBeLessThan(1);
  });

  it('rejects a sentence with too many words missing, naming them', () => {
    const r = entails('The red bridge opened in 1937 after four years of work.', ['The bridge opened in 1937.']);
    expect(r.verdict).toBe('unsupported');
    expect(r.note).toContain('missing words');
    expect(r.score).toBeGreaterThan(0);
    expect(r.score).toBeLessThan(0.75);
  });

  it('reports a negation mismatch as contradicted', () => {
    const r = entails('The bridge did not open in 1937.', ['The bridge opened in 1937.']);
    expect(r.verdict).toBe('contradicted');
    expect(r.note).toContain('negation');
  });

  it('reports a conflicting figure as contradicted', () => {
    const r = entails('The bridge opened in 1938.', ['The bridge opened in 1937.']);
    expect(r).toMatchObject({ verdict: 'contradicted', note: 'date: 1938 vs 1937' });
  });

  it('prefers a supporting sentence over a conflicting one elsewhere in the evidence', () => {
    const r = entails('The tower is 330 metres tall today.', [
      'The tower is 330 metres tall today. The tower was 312 metres tall in 1889.',
    ]);
    expect(r.verdict).toBe('supported');
  });

  it('rejects empty and content-free sentences and unrelated evidence', () => {
    expect(entails('   ', ['x']).verdict).toBe('unsupported');
    expect(entails('It is.', ['The bridge opened.'])).toMatchObject({ verdict: 'unsupported', score: 0 });
    expect(entails('Cats purr loudly.', ['The bridge opened in 1937.'])).toMatchObject({ verdict: 'unsupported', score: 0 });
    expect(entails('Cats purr loudly.', []).verdict).toBe('unsupported');
  });

  it('keeps the score within [0, 1] and is deterministic', () => {
    const r = entails('The bridge opened in 1937 with a parade.', ['The bridge opened in 1937.']);
    expect(r.score).toBeGreaterThanOrEqual(0);
    expect(r.score).toBeLessThanOrEqual(1);
    expect(entails('The bridge opened in 1937 with a parade.', ['The bridge opened in 1937.'])).toEqual(r);
  });
});

import { cosine, inverseDocumentFrequencies, termCounts, tfidfVectors } from '../../../src/offline/nlp/tfidf';

describe('tf-idf', () => {
  it('counts stemmed content terms', () => {
    expect([...termCounts('Bridges and bridge towers').entries()]).toEqual([
      ['bridg', 2],
      ['tower', 1],
    ]);
  });

  it('gives rarer terms a larger idf, never zero', () => {
    const idf = inverseDocumentFrequencies([termCounts('bridge tower'), termCounts('bridge cable'), termCounts('bridge deck')]);
    expect(idf.get('tower')!).toBeGreaterThan(idf.get('bridg')!);
    expect(idf.get('bridg')!).toBeGreaterThan(0);
  });

  it('cosine is 1 for identical texts, 0 for disjoint ones, in between otherwise', () => {
    const [a, b, c, d] = tfidfVectors(['golden gate bridge', 'golden gate bridge', 'cats and dogs', 'golden retriever dogs']);
    expect(cosine(a!, b!)).toBeCloseTo(1, 10);
    expect(cosine(a!, c!)).toBe(0);
    const partial = cosine(a!, d!);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(1);
    expect(cosine(a!, d!)).toBe(cosine(d!, a!));
  });

  it('cosine of an empty vector is 0', () => {
    expect(cosine(new Map(), termCounts('bridge'))).toBe(0);
  });
});

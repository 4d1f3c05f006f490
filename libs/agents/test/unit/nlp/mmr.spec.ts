import { mmr } from '../../../src/offline/nlp/mmr';

describe('mmr', () => {
  const candidates = [
    { id: 'a', relevance: 1.0, text: 'The Golden Gate Bridge opened in 1937.' },
    { id: 'b', relevance: 0.95, text: 'The Golden Gate Bridge opened to traffic in 1937.' },
    { id: 'c', relevance: 0.6, text: 'Its main span is 1,280 metres long.' },
    { id: 'd', relevance: 0.1, text: 'Unrelated sentence about cats.' },
  ];

  it('starts with the most relevant candidate', () => {
    expect(mmr(candidates, 1)).toEqual(['a']);
  });

  it('prefers a diverse candidate over a near-duplicate', () => {
    expect(mmr(candidates, 2)).toEqual(['a', 'c']);
  });

  it('falls back to pure relevance with lambda 1', () => {
    expect(mmr(candidates, 3, 1)).toEqual(['a', 'b', 'c']);
  });

  it('returns every candidate at most once and respects the limit', () => {
    const all = mmr([...candidates, { id: 'a', relevance: 5, text: 'dup' }], 10);
    expect(all).toHaveLength(4);
    expect(new Set(all).size).toBe(4);
    expect(mmr(candidates, 0)).toEqual([]);
    expect(mmr([], 3)).toEqual([]);
  });

  it('is deterministic on ties', () => {
    const tied = [
      { id: 'x', relevance: 1, text: 'alpha' },
      { id: 'y', relevance: 1, text: 'beta' },
    ];
    expect(mmr(tied, 2)).toEqual(['x', 'y']);
  });
});

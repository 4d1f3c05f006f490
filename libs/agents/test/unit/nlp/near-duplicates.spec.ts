import { groupNearDuplicates, jaccard, shingles } from '../../../src/offline/nlp/near-duplicates';

describe('near duplicates', () => {
  it('builds word shingles of stems', () => {
    expect([...shingles('The towers are tall', 2)]).toEqual(['the tower', 'tower ar', 'ar tall']);
    expect([...shingles('Tall', 2)]).toEqual(['tall']);
    expect(shingles('', 2).size).toBe(0);
  });

  it('computes Jaccard', () => {
    expect(jaccard(new Set([1, 2]), new Set([2, 3]))).toBeCloseTo(1 / 3);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });

  it('groups near-identical texts with the first as representative', () => {
    const groups = groupNearDuplicates([
      { id: 'e1', text: 'The Golden Gate Bridge opened in 1937.' },
      { id: 'e2', text: 'The bridge is painted International Orange.' },
      { id: 'e3', text: 'the golden gate bridge opened in 1937' },
      { id: 'e4', text: 'The Golden Gate Bridge opened in 1937, officially.' },
    ]);
    expect(groups).toEqual([['e1', 'e3', 'e4'], ['e2']]);
  });

  it('keeps apart texts that differ in a figure or in polarity', () => {
    const groups = groupNearDuplicates([
      { id: 'a', text: 'The tower is 330 metres tall.' },
      { id: 'b', text: 'The tower is 300 metres tall.' },
      { id: 'c', text: 'The tower is not 330 metres tall.' },
    ]);
    expect(groups).toEqual([['a'], ['b'], ['c']]);
  });

  it('leaves a longer variant apart at the default threshold', () => {
    const items = [
      { id: 'a', text: 'The Golden Gate Bridge opened in 1937.' },
      { id: 'b', text: 'The Golden Gate Bridge opened in 1937 to traffic.' },
    ];
    expect(groupNearDuplicates(items)).toEqual([['a'], ['b']]);
    expect(groupNearDuplicates(items, 0.7)).toEqual([['a', 'b']]);
  });

  it('honours the threshold', () => {
    const items = [
      { id: 'a', text: 'alpha beta gamma delta epsilon' },
      { id: 'b', text: 'alpha beta gamma delta zeta' },
    ];
    expect(groupNearDuplicates(items, 0.8)).toEqual([['a'], ['b']]);
    expect(groupNearDuplicates(items, 0.5)).toEqual([['a', 'b']]);
  });

  it('never groups empty texts', () => {
    expect(
      groupNearDuplicates([
        { id: 'a', text: '' },
        { id: 'b', text: '...' },
      ]),
    ).toEqual([['a'], ['b']]);
  });
});

import { Bm25Index } from '../../../src/offline/nlp/bm25';

describe('Bm25Index', () => {
  function index(): Bm25Index<string> {
    const idx = new Bm25Index<string>();
    idx.add('a', 'The Golden Gate Bridge opened in 1937 and spans the strait.');
    idx.add('b', 'Bridges in San Francisco include the Bay Bridge.');
    idx.add('c', 'Cats are small carnivorous mammals.');
    idx.add('d', 'The bridge bridge bridge is long.');
    return idx;
  }

  it('ranks documents that share rare query terms first', () => {
    const hits = index().search('When did the Golden Gate bridge open?');
    expect(hits[0]!.id).toBe('a');
    expect(hits.map((h) => h.id)).not.toContain('c');
  });

  it('matches stems (opened ~ open, bridges ~ bridge)', () => {
    const hits = index().search('bridges opening');
    expect(hits.map((h) => h.id).sort()).toEqual(['a', 'b', 'd']);
  });

  it('saturates term frequency (k1) and normalises length (b)', () => {
    const idx = new Bm25Index<string>();
    idx.add('once', 'bridge alpha beta gamma');
    idx.add('thrice', 'bridge bridge bridge alpha beta gamma');
    idx.add('other', 'delta epsilon');
    const [first, second] = idx.search('bridge');
    expect(first!.id).toBe('thrice');
    expect(first!.score / second!.score).toBeLessThan(2);
  });

  it('reports matched query terms and respects the limit', () => {
    const hits = index().search('golden gate strait', 1);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ id: 'a', matched: 3 });
  });

  it('returns nothing for an empty query or index', () => {
    expect(index().search('the of and')).toEqual([]);
    expect(new Bm25Index<string>().search('bridge')).toEqual([]);
  });

  it('replaces a document added twice', () => {
    const idx = index();
    idx.add('c', 'Golden Gate Golden Gate');
    expect(idx.size).toBe(4);
    expect(idx.search('golden gate')[0]!.id).toBe('c');
  });

  it('breaks ties by insertion order', () => {
    const idx = new Bm25Index<string>();
    idx.add('x', 'same words here');
    idx.add('y', 'same words here');
    expect(idx.search('words').map((h) => h.id)).toEqual(['x', 'y']);
  });
});

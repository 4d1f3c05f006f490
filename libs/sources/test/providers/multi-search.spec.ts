import { randomUUID } from 'node:crypto';
import { BraveSearchProvider, searchAll, SearchAuthError, TavilySearchProvider, type SearchHit, type SearchProvider } from '../../src';
import { startFakeServer, type FakeHttpServer, braveApi, tavilyApi } from '@dossier/testing';

const tenantId = randomUUID();

/** A provider answering with fixed hits (or failing), for the merge rules. */
function stub(name: string, urls: string[] | Error): SearchProvider {
  return {
    name,
    search: async () => {
      if (urls instanceof Error) throw urls;
      return urls.map((url, i): SearchHit => ({
        provider: name,
        url,
        title: `${name} ${i + 1}`,
        snippet: `${name} says`,
        rank: i + 1,
        score: 1 / (i + 1),
        origin: 'web',
      }));
    },
  };
}

describe('searchAll', () => {
  const servers: FakeHttpServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('merges Tavily and Brave (local APIs): the same page with tracking parameters is one hit found by both', async () => {
    const tavily = await startFakeServer(
      tavilyApi('tk-1234', [
        {
          title: 'KRWA levels',
          url: 'https://krwa.example.gov/levels/?utm_source=tavily&utm_medium=api#top',
          text: 'T snippet',
          score: 0.9,
        },
        { title: 'Only Tavily', url: 'https://only-tavily.example.com/', text: 'x', score: 0.5 },
      ]),
    );
    const brave = await startFakeServer(
      braveApi('bk-1234', [
        { title: 'Only Brave', url: 'https://only-brave.example.com/a', text: 'y' },
        { title: 'KRWA: levels', url: 'https://KRWA.example.gov:443/levels?gclid=abc123', text: 'B snippet' },
      ]),
    );
    servers.push(tavily, brave);
    const providers = [
      new TavilySearchProvider({ apiKey: 'tk-1234', baseUrl: tavily.url }),
      new BraveSearchProvider({ apiKey: 'bk-1234', baseUrl: brave.url }),
    ];
    const { hits, errors } = await searchAll(providers, { tenantId, query: 'lake varen levels', limit: 10 });

    expect(errors).toEqual([]);
    expect(hits.map((h) => h.canonicalUrl)).toEqual([
      'https://krwa.example.gov/levels', // found by both: first
      'https://only-brave.example.com/a', // rank 1 at Brave beats rank 2 at Tavily
      'https://only-tavily.example.com/',
    ]);
    const [krwa] = hits;
    expect(krwa!.providers).toEqual(['tavily', 'brave']);
    // The best-ranked provider's hit is kept (Tavily had it first; Brave second).
    expect(krwa).toMatchObject({ provider: 'tavily', title: 'KRWA levels', snippet: 'T snippet', rank: 1, origin: 'web' });
    expect(krwa!.score).toBeCloseTo((1 / 61 + 1 / 62) / (2 / 61), 10);
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3]);
  });

  it('orders by reciprocal-rank fusion and keeps each provider’s best rank once', async () => {
    const a = stub('a', ['https://x.example/1', 'https://x.example/2', 'https://x.example/3', 'https://x.example/2?utm_campaign=dup']);
    const b = stub('b', ['https://x.example/3', 'https://x.example/4']);
    const { hits } = await searchAll([a, b], { tenantId, query: 'q', limit: 10 });
    // /3: 1/63 + 1/61 > /1: 1/61 > /2: 1/62 (its duplicate at rank 4 does not add) > /4: 1/62 (tie → best rank, then URL)
    expect(hits.map((h) => [h.canonicalUrl, h.providers])).toEqual([
      ['https://x.example/3', ['b', 'a']],
      ['https://x.example/1', ['a']],
      ['https://x.example/2', ['a']],
      ['https://x.example/4', ['b']],
    ]);
    expect(hits[0]!.provider).toBe('b');
    expect(hits[0]!.title).toBe('b 1');
  });

  it('cuts the merged list at the query limit', async () => {
    const { hits } = await searchAll([stub('a', ['https://a.example/1', 'https://a.example/2']), stub('b', ['https://b.example/1'])], {
      tenantId,
      query: 'q',
      limit: 2,
    });
    expect(hits.map((h) => h.url)).toEqual(['https://a.example/1', 'https://b.example/1']);
  });

  it('keeps corpus hits as they are, next to web hits', async () => {
    const corpus: SearchProvider = {
      name: 'corpus',
      search: async () => [
        {
          provider: 'corpus',
          documentId: randomUUID(),
          url: 'corpus://docs/a%20b.md',
          title: 'A',
          snippet: 's',
          rank: 1,
          score: 0.3,
          origin: 'corpus',
        },
      ],
    };
    const { hits } = await searchAll([corpus, stub('web', ['https://w.example/'])], { tenantId, query: 'q', limit: 5 });
    expect(hits.map((h) => [h.canonicalUrl, h.origin])).toEqual([
      ['corpus://docs/a%20b.md', 'corpus'],
      ['https://w.example/', 'web'],
    ]);
    expect(hits[0]!.documentId).toBeDefined();
  });

  it('a failing provider is reported and the others still answer', async () => {
    const boom = new SearchAuthError('tavily: refused; check TAVILY_API_KEY', { provider: 'tavily', credential: 'TAVILY_API_KEY' });
    const { hits, errors } = await searchAll([stub('tavily', boom), stub('brave', ['https://b.example/'])], {
      tenantId,
      query: 'q',
      limit: 5,
    });
    expect(hits.map((h) => h.url)).toEqual(['https://b.example/']);
    expect(hits[0]!.score).toBe(1);
    expect(errors).toEqual([{ provider: 'tavily', error: boom }]);
  });

  it('when every provider fails, the first one’s error is thrown', async () => {
    const first = new Error('first');
    await expect(searchAll([stub('a', first), stub('b', new Error('second'))], { tenantId, query: 'q', limit: 5 })).rejects.toBe(first);
  });

  it('no providers: nothing found, nothing failed', async () => {
    await expect(searchAll([], { tenantId, query: 'q', limit: 5 })).resolves.toEqual({ hits: [], errors: [] });
  });
});

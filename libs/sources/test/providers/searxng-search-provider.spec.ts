import { randomUUID } from 'node:crypto';
import { ConfigError } from '@dossier/errors';
import { SearchAuthError, SearchProviderError, SearchResponseError, SearxngSearchProvider } from '../../src';
import { exposedText, scripted, startFakeServer, type FakeHttpServer, type Reply, searxngApi, type FakeResult } from '@dossier/testing';

const tenantId = randomUUID();
const FAST = { baseDelayMs: 10, maxDelayMs: 40 };
const RESULTS: FakeResult[] = [
  { title: 'Lake Varen', url: 'https://en.example.org/wiki/Lake_Varen', text: 'A lake in Kessmark.', score: 4 },
  { title: 'Magnet link', url: 'magnet:?xt=urn:btih:abc', text: 'not a page', score: 3 },
  { title: 'Varen levels', url: 'https://krwa.example.gov/levels', text: '', score: 2 },
  { title: 'Third', url: 'http://third.example.com/x', text: 'x', score: 1 },
];

describe('SearxngSearchProvider against a local SearXNG', () => {
  let server: FakeHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('GETs <SEARXNG_URL>/search?q=…&format=json&pageno=1 and maps results, scores over the best one', async () => {
    server = await startFakeServer(searxngApi(RESULTS));
    // An instance mounted under a path prefix, given with a trailing slash.
    const provider = new SearxngSearchProvider({ url: `${server.url}/searx/`, retry: FAST });
    const hits = await provider.search({ tenantId, query: 'lake varen', limit: 2 });

    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url.pathname).toBe('/searx/search');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({ q: 'lake varen', format: 'json', pageno: '1' });
    expect(req.headers['authorization']).toBeUndefined();
    expect(hits).toEqual([
      {
        provider: 'searxng',
        url: 'https://en.example.org/wiki/Lake_Varen',
        title: 'Lake Varen',
        snippet: 'A lake in Kessmark.',
        rank: 1,
        score: 1,
        origin: 'web',
      },
      {
        provider: 'searxng',
        url: 'https://krwa.example.gov/levels',
        title: 'Varen levels',
        snippet: '',
        rank: 2,
        score: 0.5,
        origin: 'web',
      },
    ]);
  });

  it('403 (JSON format not enabled) → SearchAuthError naming SEARXNG_URL and settings.yml', async () => {
    server = await startFakeServer(scripted([{ status: 403, text: '<!doctype html><title>403 Forbidden</title>' }], searxngApi(RESULTS)));
    const provider = new SearxngSearchProvider({ url: server.url, retry: FAST });
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchAuthError);
    expect((err as Error).message).toMatch(/HTTP 403.*check SEARXNG_URL.*search\.formats/);
  });

  it('credentials in SEARXNG_URL go as Basic auth, and the password never shows in an error', async () => {
    const password = 'hunter2-SECRET-pw';
    server = await startFakeServer(
      scripted([{ status: 200, json: { query: 'varen' } }], searxngApi(RESULTS, { basicAuth: `dossier:${password}` })),
    );
    const url = server.url.replace('http://', `http://dossier:${encodeURIComponent(password)}@`);
    const provider = new SearxngSearchProvider({ url, retry: FAST });

    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchResponseError);
    expect(exposedText(err)).not.toContain(password);
    expect(exposedText(err)).not.toContain(Buffer.from(`dossier:${password}`).toString('base64'));

    await expect(provider.search({ tenantId, query: 'varen', limit: 5 })).resolves.toHaveLength(3);
    expect(server.requests[1]!.headers['authorization']).toBe(`Basic ${Buffer.from(`dossier:${password}`).toString('base64')}`);
  });

  it('wrong basic-auth credentials → SearchAuthError without the password', async () => {
    const password = 'wrong-password-SECRET';
    server = await startFakeServer(searxngApi(RESULTS, { basicAuth: 'dossier:right' }));
    const provider = new SearxngSearchProvider({ url: server.url.replace('http://', `http://dossier:${password}@`), retry: FAST });
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchAuthError);
    expect((err as Error).message).toMatch(/HTTP 401/);
    expect(exposedText(err)).not.toContain(password);
  });

  it('429 (bot detection) with Retry-After is waited out; persistent 500 fails after the attempts', async () => {
    const limited: Reply = { status: 429, headers: { 'retry-after': '1' }, text: 'Too Many Requests' };
    server = await startFakeServer(scripted([limited], searxngApi(RESULTS)));
    const provider = new SearxngSearchProvider({ url: server.url, retry: FAST });
    await expect(provider.search({ tenantId, query: 'varen', limit: 5 })).resolves.toHaveLength(3);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(1000);
    await server.close();

    server = await startFakeServer(() => ({ status: 500, text: 'Internal Server Error' }));
    const failing = new SearxngSearchProvider({ url: server.url, retry: { ...FAST, maxAttempts: 2 } });
    const err = await failing.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('results without scores are scored 1/rank', async () => {
    server = await startFakeServer(() => ({
      status: 200,
      json: {
        query: 'q',
        results: [
          { title: 'a', url: 'https://a.example/' },
          { title: 'b', url: 'https://b.example/', content: null },
        ],
      },
    }));
    const hits = await new SearxngSearchProvider({ url: server.url }).search({ tenantId, query: 'q', limit: 5 });
    expect(hits.map((h) => [h.rank, h.score, h.snippet])).toEqual([
      [1, 1, ''],
      [2, 0.5, ''],
    ]);
  });

  it('SEARXNG_URL must be an http(s) URL', () => {
    expect(() => new SearxngSearchProvider({ url: 'searx.local:8080' })).toThrow(ConfigError);
    expect(() => new SearxngSearchProvider({ url: 'ftp://searx.local/' })).toThrow(/SEARXNG_URL must be an absolute http\(s\) URL/);
  });
});

import { randomUUID } from 'node:crypto';
import { SearchAuthError, SearchProviderError, SearchRateLimitedError, SearchResponseError, TavilySearchProvider } from '../../src';
import { exposedText, scripted, startFakeServer, type FakeHttpServer, type Reply, tavilyApi, type FakeResult } from '@dossier/testing';

const KEY = 'tvly-dev-9f8e7d6c5b4a3210SECRET';
const tenantId = randomUUID();
const FAST = { baseDelayMs: 10, maxDelayMs: 40 };
const RESULTS: FakeResult[] = [
  {
    title: 'Lake Varen water levels',
    url: 'https://krwa.example.gov/lake-varen?utm_source=tavily',
    text: 'The lake fell 6.1 m.',
    score: 0.91,
  },
  { title: 'Why the lake fell &amp; what next', url: 'https://news.example.com/varen', text: 'Farmers <b>and</b> the dam.', score: 0.42 },
  { title: 'Not a web page', url: 'ftp://files.example.com/x', text: 'skipped', score: 0.3 },
  { title: 'Third', url: 'https://blog.example.org/varen', text: 'A blog.', score: 1.7 },
];

describe('TavilySearchProvider against a local Tavily API', () => {
  let server: FakeHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(replies: Reply[] = [], key = KEY) {
    server = await startFakeServer(scripted(replies, tavilyApi(key, RESULTS)));
    return new TavilySearchProvider({ apiKey: KEY, baseUrl: server.url, retry: FAST });
  }

  it('POSTs /search with the bearer key and the documented body, and maps the answer to web hits', async () => {
    const provider = await serve();
    const hits = await provider.search({ tenantId, query: '  why did Lake Varen fall? ', limit: 3 });

    expect(server!.requests).toHaveLength(1);
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url.pathname).toBe('/search');
    expect(req.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      query: 'why did Lake Varen fall?',
      max_results: 3,
      search_depth: 'basic',
      include_answer: false,
    });

    // max_results=3 brought three results; the ftp one is dropped, ranks stay contiguous.
    expect(hits).toEqual([
      {
        provider: 'tavily',
        url: 'https://krwa.example.gov/lake-varen?utm_source=tavily',
        title: 'Lake Varen water levels',
        snippet: 'The lake fell 6.1 m.',
        rank: 1,
        score: 0.91,
        origin: 'web',
      },
      {
        provider: 'tavily',
        url: 'https://news.example.com/varen',
        title: 'Why the lake fell & what next',
        snippet: 'Farmers and the dam.',
        rank: 2,
        score: 0.42,
        origin: 'web',
      },
    ]);
  });

  it('clamps scores into 0..1 and caps max_results at Tavily’s 20', async () => {
    const provider = await serve();
    const hits = await provider.search({ tenantId, query: 'varen', limit: 50 });
    expect(JSON.parse(server!.requests[0]!.body).max_results).toBe(20);
    expect(hits.map((h) => h.score)).toEqual([0.91, 0.42, 1]);
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3]);
  });

  it('401 → SearchAuthError naming TAVILY_API_KEY, not retried, key nowhere in the error', async () => {
    server = await startFakeServer(tavilyApi('tvly-the-right-key-000000', RESULTS));
    const provider = new TavilySearchProvider({ apiKey: KEY, baseUrl: server.url, retry: FAST });
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchAuthError);
    expect((err as SearchAuthError).retryable).toBe(false);
    expect((err as SearchAuthError).message).toMatch(/TAVILY_API_KEY/);
    expect((err as SearchAuthError).message).toMatch(/HTTP 401.*missing or invalid API key/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`); // the key was sent...
    expect(exposedText(err)).not.toContain(KEY); // ...and is not in the error
  });

  it('a provider error body that echoes the key is redacted', async () => {
    const provider = await serve([{ status: 400, json: { detail: { error: `Invalid request for key ${KEY}` } } }]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(false);
    expect((err as Error).message).toContain('Invalid request for key [redacted]');
    expect(exposedText(err)).not.toContain(KEY);
  });

  it('429 with Retry-After: 1 → waits at least a second, then succeeds', async () => {
    const provider = await serve([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        json: { detail: { error: 'Your request has been blocked due to excessive requests.' } },
      },
    ]);
    const started = performance.now();
    const hits = await provider.search({ tenantId, query: 'varen', limit: 2 });
    expect(hits).toHaveLength(2);
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('429 that outlasts the attempts → SearchRateLimitedError (retryable) with retryAfterMs', async () => {
    const limited: Reply = { status: 429, headers: { 'retry-after': '0' }, json: { detail: { error: 'blocked' } } };
    const provider = await serve([limited, limited, limited]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchRateLimitedError);
    expect((err as SearchRateLimitedError).retryable).toBe(true);
    expect((err as SearchRateLimitedError).retryAfterMs).toBe(0);
    expect(server!.requests).toHaveLength(3);
  });

  it('500 then success → retried once', async () => {
    const provider = await serve([{ status: 500, json: { detail: 'Internal Server Error' } }]);
    const hits = await provider.search({ tenantId, query: 'varen', limit: 2 });
    expect(hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(server!.requests).toHaveLength(2);
  });

  it('persistent 500 → retryable SearchProviderError after exactly maxAttempts', async () => {
    server = await startFakeServer(() => ({ status: 502, text: '<html>Bad Gateway</html>' }));
    const provider = new TavilySearchProvider({ apiKey: KEY, baseUrl: server.url, retry: { ...FAST, maxAttempts: 4 } });
    const err = await provider.search({ tenantId, query: 'varen', limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect((err as SearchProviderError).status).toBe(502);
    expect((err as Error).message).toMatch(/HTTP 502.*attempt 4 of 4/);
    expect(server.requests).toHaveLength(4);
  });

  it('a body that does not match the schema → SearchResponseError, not retried', async () => {
    const provider = await serve([
      { status: 200, json: { query: 'varen', results: [{ title: 'x', url: 'https://a.example', content: 'c' }] } },
    ]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchResponseError);
    expect((err as SearchResponseError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/results\.0\.score/);
    expect(server!.requests).toHaveLength(1);
  });

  it('a 200 that is not JSON → SearchResponseError', async () => {
    const provider = await serve([{ status: 200, text: '<html>captive portal</html>' }]);
    await expect(provider.search({ tenantId, query: 'varen', limit: 2 })).rejects.toThrow(SearchResponseError);
  });

  it('Tavily’s plan-limit 432 is a non-retryable provider error with Tavily’s words', async () => {
    const provider = await serve([{ status: 432, json: { detail: { error: "This request exceeds your plan's set usage limit." } } }]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/HTTP 432\): This request exceeds your plan's set usage limit/);
    expect(server!.requests).toHaveLength(1);
  });
});

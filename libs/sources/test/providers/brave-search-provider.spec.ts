import { randomUUID } from 'node:crypto';
import {
  BraveSearchProvider,
  braveQuery,
  braveRateLimitWaitMs,
  SearchAuthError,
  SearchProviderError,
  SearchRateLimitedError,
  SearchResponseError,
} from '../../src';
import {
  exposedText,
  scripted,
  startFakeServer,
  type FakeHttpServer,
  type Reply,
  BRAVE_RATE_LIMITED,
  BRAVE_UNAUTHORIZED,
  braveApi,
  type FakeResult,
} from '@dossier/testing';

const KEY = 'BSA-brave-0123456789-SECRET';
const tenantId = randomUUID();
const FAST = { baseDelayMs: 10, maxDelayMs: 40 };
const RESULTS: FakeResult[] = [
  {
    title: 'Lake <strong>Varen</strong> levels',
    url: 'https://www.krwa.example.gov/levels',
    text: 'The <strong>lake</strong> fell 6.1&nbsp;m &mdash; KRWA&#39;s bulletin &amp; more.',
  },
  { title: 'Second', url: 'https://news.example.com/varen', text: 'Farmers.' },
  { title: 'Third', url: 'https://third.example.com/', text: 'Third.' },
];

describe('BraveSearchProvider against a local Brave Search API', () => {
  let server: FakeHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(replies: Reply[] = [], results: FakeResult[] | 'no-web' = RESULTS) {
    server = await startFakeServer(scripted(replies, braveApi(KEY, results)));
    return new BraveSearchProvider({ apiKey: KEY, baseUrl: `${server.url}/`, retry: FAST });
  }

  it('GETs /res/v1/web/search with q, count and the subscription token, and maps web results (markup stripped)', async () => {
    const provider = await serve();
    const hits = await provider.search({ tenantId, query: 'lake varen & dam', limit: 2 });

    const req = server!.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url.pathname).toBe('/res/v1/web/search');
    expect(req.url.searchParams.get('q')).toBe('lake varen & dam');
    expect(req.url.searchParams.get('count')).toBe('2');
    expect(req.headers['x-subscription-token']).toBe(KEY);
    expect(req.headers['accept']).toBe('application/json');
    expect(hits).toEqual([
      {
        provider: 'brave',
        url: 'https://www.krwa.example.gov/levels',
        title: 'Lake Varen levels',
        snippet: "The lake fell 6.1 m — KRWA's bulletin & more.",
        rank: 1,
        score: 1,
        origin: 'web',
      },
      {
        provider: 'brave',
        url: 'https://news.example.com/varen',
        title: 'Second',
        snippet: 'Farmers.',
        rank: 2,
        score: 0.5,
        origin: 'web',
      },
    ]);
  });

  it('an answer without a `web` section is no hits', async () => {
    const provider = await serve([], 'no-web');
    await expect(provider.search({ tenantId, query: 'zzzzqqq', limit: 5 })).resolves.toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });

  it('401 → SearchAuthError naming BRAVE_API_KEY; the token is sent but never in the error', async () => {
    const provider = await serve([BRAVE_UNAUTHORIZED]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchAuthError);
    expect((err as Error).message).toMatch(/HTTP 401.*check BRAVE_API_KEY/);
    expect((err as SearchAuthError).credential).toBe('BRAVE_API_KEY');
    expect(server!.requests[0]!.headers['x-subscription-token']).toBe(KEY);
    expect(exposedText(err)).not.toContain(KEY);
    expect(server!.requests).toHaveLength(1);
  });

  it('Brave’s own bad-token answer (422 SUBSCRIPTION_TOKEN_INVALID) is an auth error too', async () => {
    server = await startFakeServer(braveApi('the-real-token', RESULTS));
    const provider = new BraveSearchProvider({ apiKey: KEY, baseUrl: server.url, retry: FAST });
    const err = await provider.search({ tenantId, query: 'varen', limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchAuthError);
    expect((err as Error).message).toMatch(
      /HTTP 422\): SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid\.; check BRAVE_API_KEY/,
    );
    expect(exposedText(err)).not.toContain(KEY);
  });

  it('429 with X-RateLimit-Reset "1, …" (per-second window spent) → waits a second, then succeeds', async () => {
    const provider = await serve([BRAVE_RATE_LIMITED('0, 14000', '1, 1419704')]);
    const hits = await provider.search({ tenantId, query: 'varen', limit: 3 });
    expect(hits).toHaveLength(3);
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('429 with Retry-After: 1 → waits a second, then succeeds', async () => {
    const provider = await serve([
      { status: 429, headers: { 'retry-after': '1' }, json: { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } } },
    ]);
    await expect(provider.search({ tenantId, query: 'varen', limit: 3 })).resolves.toHaveLength(3);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('429 with the monthly quota spent → SearchRateLimitedError at once, with the reset as retryAfterMs', async () => {
    const provider = await serve([BRAVE_RATE_LIMITED('1, 0', '1, 1419704')]);
    // "At once": one request and the error; sleeping on a 16-day reset first would never end (the hang guard says so).
    const err = await provider.search({ tenantId, query: 'varen', limit: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchRateLimitedError);
    expect((err as SearchRateLimitedError).retryAfterMs).toBe(1_419_704_000);
    expect((err as Error).message).toMatch(/RATE_LIMITED: Request rate limit exceeded for plan/);
    expect(server!.requests).toHaveLength(1);
  });

  it('503 then success → retried; persistent 500 → SearchProviderError after the attempts', async () => {
    const provider = await serve([{ status: 503, text: 'unavailable' }]);
    await expect(provider.search({ tenantId, query: 'varen', limit: 3 })).resolves.toHaveLength(3);
    expect(server!.requests).toHaveLength(2);
    await server!.close();

    server = await startFakeServer(() => ({ status: 500, json: { type: 'ErrorResponse', error: { code: 'INTERNAL' } } }));
    const failing = new BraveSearchProvider({ apiKey: KEY, baseUrl: server.url, retry: FAST });
    const err = await failing.search({ tenantId, query: 'varen', limit: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('a malformed answer → SearchResponseError', async () => {
    const provider = await serve([{ status: 200, json: { type: 'search', web: { results: [{ url: 'https://a.example' }] } } }]);
    const err = await provider.search({ tenantId, query: 'varen', limit: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchResponseError);
    expect((err as Error).message).toMatch(/web\.results\.0\.title/);
  });

  it('keeps queries within Brave’s 400 characters and 50 words', () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    expect(braveQuery(long).split(' ')).toHaveLength(50);
    const wide = Array.from({ length: 30 }, () => 'x'.repeat(20)).join(' ');
    const cut = braveQuery(wide);
    expect(cut.length).toBeLessThanOrEqual(400);
    expect(cut.endsWith('x')).toBe(true);
    expect(braveQuery('short query')).toBe('short query');
  });

  it('reads X-RateLimit-Reset for the spent window', () => {
    const h = (remaining: string | null, reset: string | null) => {
      const headers = new Headers();
      if (remaining !== null) headers.set('x-ratelimit-remaining', remaining);
      if (reset !== null) headers.set('x-ratelimit-reset', reset);
      return headers;
    };
    expect(braveRateLimitWaitMs(h('0, 100', '1, 5000'))).toBe(1000);
    expect(braveRateLimitWaitMs(h('3, 0', '1, 5000'))).toBe(5_000_000);
    expect(braveRateLimitWaitMs(h(null, '2, 5000'))).toBe(2000);
    expect(braveRateLimitWaitMs(h('0', null))).toBeUndefined();
    expect(braveRateLimitWaitMs(h('0', 'soon'))).toBeUndefined();
  });
});

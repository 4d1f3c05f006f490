import { z } from 'zod';
import {
  httpJson,
  MAX_RESPONSE_BYTES,
  SearchProviderError,
  SearchRateLimitedError,
  SearchResponseError,
  type RateLimiter,
} from '../../src';
import { backoffMs } from '@dossier/errors';
import { startFakeServer, type FakeHttpServer } from '@dossier/testing';

const Schema = z.object({ ok: z.literal(true) });
const FAST = { baseDelayMs: 10, maxDelayMs: 40 };

function call(url: string, extra: Partial<Parameters<typeof httpJson>[0]> = {}) {
  return httpJson({ provider: 'test', method: 'GET', url, schema: Schema, credential: 'TEST_API_KEY', retry: FAST, ...extra });
}

describe('httpJson', () => {
  const servers: FakeHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  async function serve(handler: Parameters<typeof startFakeServer>[0]) {
    const s = await startFakeServer(handler);
    servers.push(s);
    return s;
  }

  it('a timeout is a retryable SearchProviderError, retried up to maxAttempts', async () => {
    const s = await serve(() => ({ status: 200, hang: true }));
    const err = await call(`${s.url}/slow`, { timeoutMs: 150, retry: { ...FAST, maxAttempts: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/timed out after 150 ms \(attempt 2 of 2\)/);
    expect(s.requests).toHaveLength(2);
  });

  it('a refused connection is a retryable SearchProviderError', async () => {
    const s = await serve(() => ({ status: 200, json: { ok: true } }));
    const url = s.url;
    await s.close();
    servers.pop();
    const err = await call(`${url}/x`, { retry: { ...FAST, maxAttempts: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/network error.*ECONNREFUSED/);
  });

  it('does not follow redirects (a key header must not travel to another host)', async () => {
    const elsewhere = await serve(() => ({ status: 200, json: { ok: true } }));
    const s = await serve(() => ({ status: 307, headers: { location: `${elsewhere.url}/steal?x=1` } }));
    const err = await call(`${s.url}/search`, { headers: { 'x-subscription-token': 'SECRET-TOKEN-1' }, secrets: ['SECRET-TOKEN-1'] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/redirect \(HTTP 307\) to 127\.0\.0\.1:\d+\/steal;/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('acquires the rate limiter before every attempt, retries included', async () => {
    let acquired = 0;
    const limiter: RateLimiter = { acquire: async () => void acquired++ };
    const s = await serve((_req, i) => (i < 2 ? { status: 503, text: 'busy' } : { status: 200, json: { ok: true } }));
    await expect(call(`${s.url}/x`, { limiter })).resolves.toEqual({ ok: true });
    expect(s.requests).toHaveLength(3);
    expect(acquired).toBe(3);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    // Whole seconds only: a date two seconds ahead means a wait of one to two seconds.
    const s = await serve((_req, i) =>
      i === 0
        ? { status: 503, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() }, text: 'later' }
        : { status: 200, json: { ok: true } },
    );
    await expect(call(`${s.url}/x`)).resolves.toEqual({ ok: true });
    // At least the second it said (an upper bound would only measure the machine's load; the parsing itself
    // is pinned by parseRetryAfter's unit tests in libs/errors).
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('a Retry-After longer than maxRetryAfterMs is not slept on: SearchRateLimitedError at once', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after': '120' }, json: { error: 'slow down' } }));
    const err = await call(`${s.url}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchRateLimitedError);
    expect((err as SearchRateLimitedError).retryAfterMs).toBe(120_000);
    expect((err as Error).message).toMatch(/HTTP 429\): slow down; retry after 120 s/);
    expect(s.requests).toHaveLength(1);
  });

  it('a 503 asking for a longer wait than maxRetryAfterMs fails at once (retryable)', async () => {
    const s = await serve(() => ({ status: 503, headers: { 'retry-after': '3600' }, text: 'maintenance' }));
    const err = await call(`${s.url}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).retryable).toBe(true);
    expect(s.requests).toHaveLength(1);
  });

  it('a caller abort is rethrown as is, also while waiting to retry', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after': '30' }, text: '' }));
    const controller = new AbortController();
    const pending = call(`${s.url}/x`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    await expect(pending).rejects.toThrow('run cancelled');
    expect(s.requests).toHaveLength(1);
  });

  it('refuses an answer larger than MAX_RESPONSE_BYTES', async () => {
    const s = await serve(() => ({ status: 200, text: `{"ok":true,"pad":"${'x'.repeat(MAX_RESPONSE_BYTES)}"}` }));
    await expect(call(`${s.url}/x`)).rejects.toThrow(SearchResponseError);
  });

  it('backs off exponentially with jitter, capped', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 100, 1000, () => 1))).toEqual([100, 200, 400, 800]);
    expect([1, 2, 3].map((a) => backoffMs(a, 100, 1000, () => 0))).toEqual([50, 100, 200]);
    expect(backoffMs(10, 100, 1000, () => 1)).toBe(1000);
  });
});

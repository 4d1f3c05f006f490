import { createHash, randomUUID } from 'node:crypto';
import { ConfigError } from '@dossier/errors';
import { Redis } from 'ioredis';
import { BraveSearchProvider, TavilySearchProvider, webProvidersFromEnv } from '../../src';
import { startFakeServer, type FakeHttpServer, braveApi, searxngApi, tavilyApi, type FakeResult } from '@dossier/testing';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const tenantId = randomUUID();
const RESULTS: FakeResult[] = [{ title: 'A', url: 'https://a.example.com/', text: 'a', score: 0.8 }];

describe('webProvidersFromEnv', () => {
  const servers: FakeHttpServer[] = [];
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await redis.quit();
  });

  it('builds nothing without keys or URLs, and treats blank values as unset', () => {
    expect(webProvidersFromEnv({}, null)).toEqual([]);
    expect(webProvidersFromEnv({ TAVILY_API_KEY: '', BRAVE_API_KEY: '  ', SEARXNG_URL: '' }, null)).toEqual([]);
  });

  it('builds the providers whose settings are present, pointed at their base URLs, with keys only from the env', async () => {
    const tavilyKey = `tvly-${randomUUID()}`;
    const braveKey = `brave-${randomUUID()}`;
    const [tavily, brave, searxng] = await Promise.all([
      startFakeServer(tavilyApi(tavilyKey, RESULTS)),
      startFakeServer(braveApi(braveKey, RESULTS)),
      startFakeServer(searxngApi(RESULTS)),
    ]);
    servers.push(tavily, brave, searxng);
    const env = {
      TAVILY_API_KEY: tavilyKey,
      TAVILY_BASE_URL: tavily.url,
      BRAVE_API_KEY: braveKey,
      BRAVE_BASE_URL: brave.url,
      SEARXNG_URL: searxng.url,
      SEARXNG_RATE_PER_SECOND: '10',
    };
    const providers = webProvidersFromEnv(env, redis);
    expect(providers.map((p) => p.name)).toEqual(['tavily', 'brave', 'searxng']);
    for (const p of providers) {
      const hits = await p.search({ tenantId, query: 'a', limit: 3 });
      expect(hits.map((h) => [h.provider, h.url])).toEqual([[p.name, 'https://a.example.com/']]);
    }
    expect([tavily, brave, searxng].map((s) => s.requests.length)).toEqual([1, 1, 1]);

    // The shared limiter lives in Redis under the provider and a hash of the key, never the key itself.
    const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
    expect(await redis.exists(`dossier:ratelimit:search:tavily:${hash(tavilyKey)}`)).toBe(1);
    expect(await redis.exists(`dossier:ratelimit:search:brave:${hash(braveKey)}`)).toBe(1);
    expect(await redis.keys(`*${tavilyKey}*`)).toEqual([]);

    const only = webProvidersFromEnv({ SEARXNG_URL: searxng.url }, null);
    expect(only.map((p) => p.name)).toEqual(['searxng']);
  });

  it('refuses bad rates and base URLs with the variable’s name', () => {
    expect(() => webProvidersFromEnv({ BRAVE_API_KEY: 'k', BRAVE_RATE_PER_SECOND: 'fast' }, null)).toThrow(ConfigError);
    expect(() => webProvidersFromEnv({ BRAVE_API_KEY: 'k', BRAVE_RATE_PER_SECOND: '0' }, null)).toThrow(/BRAVE_RATE_PER_SECOND/);
    expect(() => webProvidersFromEnv({ TAVILY_API_KEY: 'k', TAVILY_BASE_URL: 'api.tavily.com' }, null)).toThrow(/TAVILY_BASE_URL/);
    expect(() => new TavilySearchProvider({ apiKey: ' ' })).toThrow(/TAVILY_API_KEY is empty/);
    expect(() => new BraveSearchProvider({ apiKey: '' })).toThrow(ConfigError);
  });
});

import { createHash } from 'node:crypto';
import { WebSearchEnv } from '@dossier/config';
import { ConfigError } from '@dossier/errors';
import type { Redis } from 'ioredis';
import { InProcessRateLimiter } from '@dossier/telemetry';
import type { RateLimiter } from '@dossier/telemetry';
import { RedisRateLimiter } from '@dossier/telemetry';
import type { SearchProvider } from '../search-provider';
import { BraveSearchProvider } from './brave-search-provider';
import { SearxngSearchProvider } from './searxng-search-provider';
import { TavilySearchProvider } from './tavily-search-provider';
import type { WebProviderOptions } from './web-provider-options';

/** Shared by every provider built here; tests use it to shorten backoff and timeouts. */
export type WebProvidersOptions = Pick<WebProviderOptions, 'timeoutMs' | 'retry' | 'fetch'>;

/**
 * The web providers whose credentials the environment holds, in the order tavily, brave, searxng.
 * Keys come from the environment only. With Redis, each provider's rate limit is shared by every worker
 * (the limiter key is the provider plus a hash of its key or URL, so the secret is not written to Redis
 * and two accounts do not share one budget); without, it is per process.
 */
export function webProvidersFromEnv(
  env: Record<string, string | undefined>,
  redis: Redis | null,
  options: WebProvidersOptions = {},
): SearchProvider[] {
  const parsed = WebSearchEnv.safeParse(env);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    throw new ConfigError(`Invalid web search settings: ${names.map((n) => `${n} must be a positive number`).join('; ')}`, {
      details: { variables: names },
    });
  }
  const e = parsed.data;
  const limiter = (provider: string, identity: string, ratePerSecond: number): RateLimiter => {
    const key = `search:${provider}:${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
    return redis ? new RedisRateLimiter(redis, { key, ratePerSecond }) : new InProcessRateLimiter({ ratePerSecond });
  };
  const providers: SearchProvider[] = [];
  if (e.TAVILY_API_KEY) {
    providers.push(
      new TavilySearchProvider({
        ...options,
        apiKey: e.TAVILY_API_KEY,
        ...(e.TAVILY_BASE_URL ? { baseUrl: e.TAVILY_BASE_URL } : {}),
        limiter: limiter('tavily', e.TAVILY_API_KEY, e.TAVILY_RATE_PER_SECOND),
      }),
    );
  }
  if (e.BRAVE_API_KEY) {
    providers.push(
      new BraveSearchProvider({
        ...options,
        apiKey: e.BRAVE_API_KEY,
        ...(e.BRAVE_BASE_URL ? { baseUrl: e.BRAVE_BASE_URL } : {}),
        limiter: limiter('brave', e.BRAVE_API_KEY, e.BRAVE_RATE_PER_SECOND),
      }),
    );
  }
  if (e.SEARXNG_URL) {
    providers.push(
      new SearxngSearchProvider({ ...options, url: e.SEARXNG_URL, limiter: limiter('searxng', e.SEARXNG_URL, e.SEARXNG_RATE_PER_SECOND) }),
    );
  }
  return providers;
}

import { BRAVE_DEFAULT_RATE_PER_SECOND } from '@dossier/config';
import { z } from 'zod';
import { InProcessRateLimiter } from '@dossier/telemetry';
import type { RateLimiter } from '@dossier/telemetry';
import { SearchQuerySchema, type SearchHit, type SearchProvider, type SearchQuery } from '../search-provider';
import { braveRateLimitWaitMs } from './brave-rate-limit-headers';
import { httpJson } from './http-json';
import { joinUrl, toWebHits } from './web-hits';
import { requireHttpUrl, requireKey, type WebProviderOptions } from './web-provider-options';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com';
// Declared with its variable in libs/config (issue 26).
export { BRAVE_DEFAULT_RATE_PER_SECOND } from '@dossier/config';
/** Brave's documented ceilings: count ≤ 20, q ≤ 400 characters and 50 words (else 422). */
const BRAVE_MAX_COUNT = 20;
const BRAVE_MAX_QUERY_CHARS = 400;
const BRAVE_MAX_QUERY_WORDS = 50;

const BraveResponseSchema = z.looseObject({
  type: z.literal('search'),
  web: z
    .looseObject({
      results: z.array(
        z.looseObject({
          title: z.string(),
          url: z.string(),
          description: z.string().optional(),
          page_age: z.string().optional(),
          age: z.string().optional(),
        }),
      ),
    })
    .optional(),
});

/**
 * `brave`: GET /res/v1/web/search with the `X-Subscription-Token` header. No `web` section (no web
 * results for the query) means no hits. Brave gives no score: 1/rank. A bad token comes back as 401/403
 * or as 422 `SUBSCRIPTION_TOKEN_INVALID`; both are auth errors.
 */
export class BraveSearchProvider implements SearchProvider {
  readonly name = 'brave';
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly limiter: RateLimiter;

  constructor(private readonly options: WebProviderOptions & { apiKey: string }) {
    this.apiKey = requireKey(options.apiKey, 'BRAVE_API_KEY');
    this.baseUrl = requireHttpUrl(options.baseUrl ?? BRAVE_DEFAULT_BASE_URL, 'BRAVE_BASE_URL');
    this.limiter = options.limiter ?? new InProcessRateLimiter({ ratePerSecond: BRAVE_DEFAULT_RATE_PER_SECOND });
  }

  async search(input: SearchQuery): Promise<SearchHit[]> {
    const query = SearchQuerySchema.parse(input);
    const url = joinUrl(this.baseUrl, '/res/v1/web/search');
    url.searchParams.set('q', braveQuery(query.query));
    url.searchParams.set('count', String(Math.min(query.limit, BRAVE_MAX_COUNT)));
    const answer = await httpJson({
      provider: this.name,
      method: 'GET',
      url: url.href,
      headers: { 'x-subscription-token': this.apiKey, accept: 'application/json' },
      schema: BraveResponseSchema,
      credential: 'BRAVE_API_KEY',
      secrets: [this.apiKey],
      limiter: this.limiter,
      rateLimitWaitMs: braveRateLimitWaitMs,
      isAuthFailure: (status, body) => status === 422 && body.includes('SUBSCRIPTION_TOKEN_INVALID'),
      timeoutMs: this.options.timeoutMs,
      retry: this.options.retry,
      fetch: this.options.fetch,
    });
    const results = answer.web?.results ?? [];
    return toWebHits(
      this.name,
      results.map((r) => ({ url: r.url, title: r.title, snippet: r.description ?? '' })),
      query.limit,
    );
  }
}

/** The query within Brave's limits, cut at a word boundary. */
export function braveQuery(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, BRAVE_MAX_QUERY_WORDS);
  let out = '';
  for (const word of words) {
    const next = out ? `${out} ${word}` : word;
    if (next.length > BRAVE_MAX_QUERY_CHARS) break;
    out = next;
  }
  return out || text.trim().slice(0, BRAVE_MAX_QUERY_CHARS);
}

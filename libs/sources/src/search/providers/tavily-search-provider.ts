import { TAVILY_DEFAULT_RATE_PER_SECOND } from '@dossier/config';
import { z } from 'zod';
import { InProcessRateLimiter } from '@dossier/telemetry';
import type { RateLimiter } from '@dossier/telemetry';
import { SearchQuerySchema, type SearchHit, type SearchProvider, type SearchQuery } from '../search-provider';
import { httpJson } from './http-json';
import { joinUrl, toWebHits } from './web-hits';
import { requireHttpUrl, requireKey, type WebProviderOptions } from './web-provider-options';

export const TAVILY_DEFAULT_BASE_URL = 'https://api.tavily.com';
// Declared with its variable in libs/config (issue 26).
export { TAVILY_DEFAULT_RATE_PER_SECOND } from '@dossier/config';
/** Tavily's documented ceiling for max_results. */
const TAVILY_MAX_RESULTS = 20;

const TavilyResponseSchema = z.looseObject({
  query: z.string(),
  results: z.array(
    z.looseObject({
      title: z.string(),
      url: z.string(),
      content: z.string(),
      score: z.number(),
      published_date: z.string().nullish(),
    }),
  ),
  // Not used; the API has sent it both as a number and as a numeric string.
  response_time: z.union([z.number(), z.string()]).optional(),
});

/** `tavily`: POST /search with a bearer key; scores are Tavily's own relevance, already in 0..1. */
export class TavilySearchProvider implements SearchProvider {
  readonly name = 'tavily';
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly limiter: RateLimiter;

  constructor(private readonly options: WebProviderOptions & { apiKey: string }) {
    this.apiKey = requireKey(options.apiKey, 'TAVILY_API_KEY');
    this.baseUrl = requireHttpUrl(options.baseUrl ?? TAVILY_DEFAULT_BASE_URL, 'TAVILY_BASE_URL');
    this.limiter = options.limiter ?? new InProcessRateLimiter({ ratePerSecond: TAVILY_DEFAULT_RATE_PER_SECOND });
  }

  async search(input: SearchQuery): Promise<SearchHit[]> {
    const query = SearchQuerySchema.parse(input);
    const answer = await httpJson({
      provider: this.name,
      method: 'POST',
      url: joinUrl(this.baseUrl, '/search').href,
      headers: { authorization: `Bearer ${this.apiKey}` },
      body: { query: query.query, max_results: Math.min(query.limit, TAVILY_MAX_RESULTS), search_depth: 'basic', include_answer: false },
      schema: TavilyResponseSchema,
      credential: 'TAVILY_API_KEY',
      secrets: [this.apiKey],
      limiter: this.limiter,
      timeoutMs: this.options.timeoutMs,
      retry: this.options.retry,
      fetch: this.options.fetch,
    });
    return toWebHits(
      this.name,
      answer.results.map((r) => ({ url: r.url, title: r.title, snippet: r.content, rawScore: r.score })),
      query.limit,
      (r) => r.rawScore ?? 0,
    );
  }
}

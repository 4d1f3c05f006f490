import { SEARXNG_DEFAULT_RATE_PER_SECOND } from '@dossier/config';
import { z } from 'zod';
import { registerSecret } from '@dossier/errors';
import { InProcessRateLimiter } from '@dossier/telemetry';
import type { RateLimiter } from '@dossier/telemetry';
import { SearchQuerySchema, type SearchHit, type SearchProvider, type SearchQuery } from '../search-provider';
import { httpJson } from './http-json';
import { joinUrl, toWebHits } from './web-hits';
import { requireHttpUrl, type WebProviderOptions } from './web-provider-options';

// Declared with its variable in libs/config (issue 26).
export { SEARXNG_DEFAULT_RATE_PER_SECOND } from '@dossier/config';

const SearxngResponseSchema = z.looseObject({
  query: z.string(),
  results: z.array(
    z.looseObject({
      title: z.string(),
      url: z.string(),
      content: z.string().nullish(),
      engine: z.string().nullish(),
      score: z.number().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

/**
 * `searxng`: a self-hosted SearXNG instance, GET /search?format=json. No key; credentials in the URL
 * (`https://user:pass@host`, for an instance behind basic auth) are sent as an Authorization header,
 * since fetch refuses URLs that carry them. SearXNG's score is a sum over engines with no fixed scale:
 * divided by the best score of the answer. A 403 usually means the instance does not enable the JSON format.
 */
export class SearxngSearchProvider implements SearchProvider {
  readonly name = 'searxng';
  private readonly endpoint: URL;
  private readonly headers: Record<string, string> = {};
  private readonly secrets: string[] = [];
  private readonly limiter: RateLimiter;

  constructor(private readonly options: Omit<WebProviderOptions, 'baseUrl'> & { url: string }) {
    const base = new URL(requireHttpUrl(options.url, 'SEARXNG_URL'));
    if (base.username || base.password) {
      const user = decodeURIComponent(base.username);
      const password = decodeURIComponent(base.password);
      this.headers['authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      this.secrets.push(password, base.password, this.headers['authorization'].slice('Basic '.length));
      for (const secret of this.secrets) registerSecret(secret);
      base.username = '';
      base.password = '';
    }
    this.endpoint = joinUrl(base.href, '/search');
    this.limiter = options.limiter ?? new InProcessRateLimiter({ ratePerSecond: SEARXNG_DEFAULT_RATE_PER_SECOND });
  }

  async search(input: SearchQuery): Promise<SearchHit[]> {
    const query = SearchQuerySchema.parse(input);
    const url = new URL(this.endpoint);
    url.searchParams.set('q', query.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', '1');
    const answer = await httpJson({
      provider: this.name,
      method: 'GET',
      url: url.href,
      headers: this.headers,
      schema: SearxngResponseSchema,
      credential: 'SEARXNG_URL',
      authHint: 'the instance must list "json" in search.formats (settings.yml), and any credentials in the URL must be valid',
      secrets: this.secrets,
      limiter: this.limiter,
      timeoutMs: this.options.timeoutMs,
      retry: this.options.retry,
      fetch: this.options.fetch,
    });
    return toWebHits(
      this.name,
      answer.results.map((r) => ({ url: r.url, title: r.title, snippet: r.content ?? '', rawScore: r.score ?? undefined })),
      query.limit,
      (r, rank, kept) => {
        const best = Math.max(0, ...kept.map((k) => k.rawScore ?? 0));
        return r.rawScore !== undefined && best > 0 ? r.rawScore / best : 1 / rank;
      },
    );
  }
}

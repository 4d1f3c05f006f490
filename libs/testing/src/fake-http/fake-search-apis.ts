import type { RecordedRequest, Reply } from './fake-http-server';

/**
 * Local stand-ins that speak each provider's real API: paths, auth headers, request parameters, answer
 * and error bodies as the providers document them (Tavily /search, Brave /res/v1/web/search, SearXNG
 * /search?format=json).
 */

export interface FakeResult {
  title: string;
  url: string;
  text: string;
  score?: number;
}

export function tavilyApi(apiKey: string, results: FakeResult[]): (req: RecordedRequest) => Reply {
  return (req) => {
    if (req.method !== 'POST' || req.url.pathname !== '/search') return { status: 404, json: { detail: 'Not Found' } };
    if (req.headers['authorization'] !== `Bearer ${apiKey}`) {
      return { status: 401, json: { detail: { error: 'Unauthorized: missing or invalid API key.' } } };
    }
    const body = JSON.parse(req.body) as { query?: unknown; max_results?: number };
    if (typeof body.query !== 'string' || body.query === '') return { status: 400, json: { detail: { error: 'Query is missing.' } } };
    return {
      status: 200,
      json: {
        query: body.query,
        follow_up_questions: null,
        answer: null,
        images: [],
        results: results.slice(0, body.max_results ?? 5).map((r) => ({
          url: r.url,
          title: r.title,
          content: r.text,
          score: r.score ?? 0.5,
          raw_content: null,
          published_date: '2025-03-01',
        })),
        response_time: 0.87,
        request_id: '0f8c1e7a-4b8e-4c7e-9a3e-5d2b1f6a9c10',
      },
    };
  };
}

export const BRAVE_RATE_HEADERS = {
  'x-ratelimit-limit': '1, 15000',
  'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
  'x-ratelimit-remaining': '0, 14000',
  'x-ratelimit-reset': '1, 1419704',
};

function braveError(status: number, code: string, detail: string): Reply['json'] {
  return {
    type: 'ErrorResponse',
    error: {
      id: 'c0ffee00-1234-4abc-9def-000000000001',
      status,
      code,
      detail,
      meta: { component: status === 429 ? 'rate_limiter' : 'authentication' },
    },
    time: 1735689600,
  };
}

export function braveApi(apiKey: string, results: FakeResult[] | 'no-web'): (req: RecordedRequest) => Reply {
  return (req) => {
    if (req.method !== 'GET' || req.url.pathname !== '/res/v1/web/search')
      return { status: 404, json: braveError(404, 'NOT_FOUND', 'Not found') };
    if (req.headers['x-subscription-token'] !== apiKey) {
      return { status: 422, json: braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.') };
    }
    const q = req.url.searchParams.get('q') ?? '';
    const count = Number(req.url.searchParams.get('count') ?? 20);
    const headers = { ...BRAVE_RATE_HEADERS, 'x-ratelimit-remaining': '1, 14000' };
    const base = {
      type: 'search',
      query: { original: q, show_strict_warning: false, is_navigational: false, country: 'us', bad_results: false },
    };
    if (results === 'no-web') return { status: 200, headers, json: { ...base, mixed: { type: 'mixed', main: [], top: [], side: [] } } };
    return {
      status: 200,
      headers,
      json: {
        ...base,
        mixed: { type: 'mixed', main: results.slice(0, count).map((_, i) => ({ type: 'web', index: i, all: false })), top: [], side: [] },
        web: {
          type: 'search',
          family_friendly: true,
          results: results.slice(0, count).map((r) => ({
            title: r.title,
            url: r.url,
            is_source_local: false,
            is_source_both: false,
            description: r.text,
            page_age: '2025-03-01T10:00:00',
            age: 'March 1, 2025',
            language: 'en',
            family_friendly: true,
            type: 'search_result',
            subtype: 'generic',
            meta_url: { scheme: 'https', netloc: new URL(r.url).host, hostname: new URL(r.url).hostname, favicon: '', path: '' },
          })),
        },
      },
    };
  };
}

export const BRAVE_UNAUTHORIZED: Reply = { status: 401, json: braveError(401, 'UNAUTHORIZED', 'Unauthorized') };
export const BRAVE_RATE_LIMITED = (remaining: string, reset: string): Reply => ({
  status: 429,
  headers: { ...BRAVE_RATE_HEADERS, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': reset },
  json: braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.'),
});

export function searxngApi(results: FakeResult[], options: { basicAuth?: string } = {}): (req: RecordedRequest) => Reply {
  return (req) => {
    if (options.basicAuth && req.headers['authorization'] !== `Basic ${Buffer.from(options.basicAuth).toString('base64')}`) {
      return {
        status: 401,
        headers: { 'www-authenticate': 'Basic realm="searxng"' },
        text: '<html><body>401 Authorization Required</body></html>',
      };
    }
    if (req.method !== 'GET' || !req.url.pathname.endsWith('/search')) return { status: 404, text: '<html><body>Not Found</body></html>' };
    // SearXNG answers 403 when a format is asked for that settings.yml does not enable.
    if (req.url.searchParams.get('format') !== 'json')
      return { status: 403, text: '<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>' };
    const q = req.url.searchParams.get('q') ?? '';
    return {
      status: 200,
      json: {
        query: q,
        number_of_results: 0,
        results: results.map((r, i) => ({
          url: r.url,
          title: r.title,
          content: r.text,
          engine: i % 2 ? 'bing' : 'duckduckgo',
          parsed_url: ['https', new URL(r.url).host, new URL(r.url).pathname, '', '', ''],
          template: 'default.html',
          engines: ['duckduckgo', 'bing'],
          positions: [i + 1],
          publishedDate: null,
          score: r.score ?? 1,
          category: 'general',
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      },
    };
  };
}

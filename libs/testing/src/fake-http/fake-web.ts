import { startFakeServer, type FakeHttpServer } from './fake-http-server';
import { tavilyApi } from './fake-search-apis';

export interface FakeWebPage {
  title: string;
  body: string;
}

export interface FakeWeb {
  /** The pages, by path, as HTML; every request is recorded (`pages.requests`). */
  pages: FakeHttpServer;
  /** Tavily's /search, finding every page (best first, in the order given), snippets of 120 characters. */
  tavily: FakeHttpServer;
  /** What a worker needs to search and fetch this web: the Tavily key and URL, and the test allowlist of the pages. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export const FAKE_TAVILY_KEY = 'tvly-test-key';

/**
 * A small web on 127.0.0.1 for end-to-end tests: pages rendered by `html`, and a Tavily API (the real protocol, key
 * checked) whose results link to them, with `urlSuffix` appended (a tracking parameter, to test canonical URLs).
 * The pages are reachable only through the fetcher's test allowlist, which `env()` sets.
 */
export async function startFakeWeb(
  pages: Readonly<Record<string, FakeWebPage>>,
  options: { html: (title: string, body: string) => string; urlSuffix?: string },
): Promise<FakeWeb> {
  const site = await startFakeServer((req) => {
    const page = pages[req.url.pathname];
    return page ? { status: 200, text: options.html(page.title, page.body) } : { status: 404 };
  });
  const results = Object.entries(pages).map(([p, page], i) => ({
    title: page.title,
    url: `${site.url}${p}${options.urlSuffix ?? ''}`,
    text: page.body.slice(0, 120),
    score: 0.9 - i * 0.1,
  }));
  const tavily = await startFakeServer(tavilyApi(FAKE_TAVILY_KEY, results));
  const port = new URL(site.url).port;
  return {
    pages: site,
    tavily,
    env: () => ({
      TAVILY_API_KEY: FAKE_TAVILY_KEY,
      TAVILY_BASE_URL: tavily.url,
      DOSSIER_FETCH_TEST_ALLOWLIST: `127.0.0.1:${port}`,
      DOSSIER_FETCH_ALLOWED_PORTS: `80,443,${port}`,
    }),
    close: async () => {
      await site.close();
      await tavily.close();
    },
  };
}

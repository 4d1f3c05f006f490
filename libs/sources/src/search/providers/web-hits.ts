import type { SearchHit } from '../search-provider';
import { plainText } from './plain-text';

export interface WebResult {
  url: string;
  title: string;
  snippet: string;
  /** The provider's own relevance, when it gives one. */
  rawScore?: number | undefined;
}

/**
 * Provider results as `SearchHit`s: only http(s) URLs (nothing else can be fetched or cited), at most
 * `limit`, ranked 1.. in the provider's order, title and snippet as plain text. `score` is in 0..1:
 * `scoreOf` decides from the raw score; without one it is 1/rank.
 */
export function toWebHits(
  provider: string,
  results: readonly WebResult[],
  limit: number,
  scoreOf: (result: WebResult, rank: number, kept: readonly WebResult[]) => number = (_r, rank) => 1 / rank,
): SearchHit[] {
  const kept = results.filter((r) => isHttpUrl(r.url)).slice(0, limit);
  return kept.map((r, i) => ({
    provider,
    url: r.url,
    title: plainText(r.title) || r.url,
    snippet: plainText(r.snippet),
    rank: i + 1,
    score: clamp01(scoreOf(r, i + 1, kept)),
    origin: 'web' as const,
  }));
}

function isHttpUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}

function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}

/** `${base}${path}`, tolerating a base with or without a trailing slash and with a path of its own. */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

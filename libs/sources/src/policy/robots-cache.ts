import { parseRobots, type RobotsMatcher } from './robots';

export interface RobotsCacheOptions {
  /**
   * Fetches `https://host/robots.txt`: the text, or null when the site has none (4xx), which allows
   * everything. Plug in the SSRF-safe fetcher. A thrown error propagates to the caller and is not
   * cached (RFC 9309 would have an unreachable robots.txt mean "disallow all"; that is the caller's call).
   */
  fetchText: (url: string) => Promise<string | null>;
  /** Our crawler's user agent; its product token (before `/`) selects the robots group. */
  userAgent: string;
  /** RFC 9309 §2.4: a cached robots.txt should not be used for more than 24 hours. */
  ttlMs?: number;
  /** Origins kept; the least recently fetched go first. */
  maxOrigins?: number;
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * robots.txt rules per origin (scheme, host and port: RFC 9309 scopes a robots.txt to exactly that),
 * fetched once per TTL. Concurrent questions about one origin share one fetch.
 */
export class RobotsCache {
  private readonly entries = new Map<string, { matcher: Promise<RobotsMatcher>; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxOrigins: number;
  private readonly now: () => number;

  constructor(private readonly options: RobotsCacheOptions) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.maxOrigins = options.maxOrigins ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** Corpus documents and non-http(s) URLs are not robots' business: allowed. */
  async isAllowed(url: string): Promise<boolean> {
    if (!URL.canParse(url)) return true;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return true;
    const matcher = await this.matcherFor(u.origin);
    return matcher(`${u.pathname}${u.search}`, this.options.userAgent);
  }

  matcherFor(origin: string): Promise<RobotsMatcher> {
    const now = this.now();
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > now) return cached.matcher;
    const matcher = this.options.fetchText(`${origin}/robots.txt`).then((txt) => parseRobots(txt ?? ''));
    this.entries.delete(origin);
    this.entries.set(origin, { matcher, expiresAt: now + this.ttlMs });
    // A failed fetch is forgotten, so the next question tries again.
    matcher.catch(() => {
      if (this.entries.get(origin)?.matcher === matcher) this.entries.delete(origin);
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxOrigins) break;
      this.entries.delete(oldest);
    }
    return matcher;
  }
}

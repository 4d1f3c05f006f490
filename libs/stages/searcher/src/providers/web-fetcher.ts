import { Injectable } from '@nestjs/common';
import { fetchPolicyFromEnv, RobotsCache, SafeFetcher } from '@dossier/sources';

/**
 * The SSRF-safe fetcher of this process (policy from DOSSIER_FETCH_* variables; the test allowlist only
 * under NODE_ENV=test) and a robots.txt cache that fetches through it.
 */
@Injectable()
export class WebFetcher {
  readonly fetcher: SafeFetcher;
  readonly robots: RobotsCache;

  constructor() {
    const policy = fetchPolicyFromEnv(process.env);
    this.fetcher = new SafeFetcher(policy);
    this.robots = new RobotsCache({
      userAgent: policy.userAgent,
      fetchText: async (url) => {
        try {
          const page = await this.fetcher.fetch(url);
          return page.status === 200 ? new TextDecoder().decode(page.bytes) : null;
        } catch {
          // No readable robots.txt: nothing is disallowed (the common convention).
          return null;
        }
      },
    });
  }
}

import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { environment } from '@dossier/config';
import { recorded } from '@dossier/db';
import { fetchPolicyFromEnv, RobotsCache, SafeFetcher } from '@dossier/sources';

/**
 * The SSRF-safe fetcher of this process (policy from DOSSIER_FETCH_* variables; the test allowlist only
 * under NODE_ENV=test) and a robots.txt cache that fetches through it.
 */
@Injectable()
export class WebFetcher {
  readonly fetcher: SafeFetcher;
  /** robots.txt verdicts, recorded against the run and replayed from a recording like every external answer (0030). */
  readonly robots: Pick<RobotsCache, 'isAllowed'>;

  constructor() {
    const policy = fetchPolicyFromEnv(environment());
    this.fetcher = new SafeFetcher(policy);
    const cache = new RobotsCache({
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
    this.robots = {
      isAllowed: (url: string) =>
        recorded({ kind: 'robots', request: { url }, name: `robots.txt verdict for ${url}` }, z.boolean(), () => cache.isAllowed(url)),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { environment } from '@dossier/config';
import { PrismaService } from '@dossier/db';
import { REDIS } from '@dossier/queue';
import { CorpusSearchProvider, RecordedSearchProvider, webProvidersFromEnv, type SearchProvider } from '@dossier/sources';
import { UnknownSearchProviderError } from './unknown-provider.error';

/**
 * The search providers a run may name: the corpus always; Tavily, Brave and SearXNG when their keys or
 * URL are in the environment (keys only from there). Web providers share their rate limits across every
 * worker through Redis.
 */
@Injectable()
export class SearchProviders {
  private readonly providers: ReadonlyMap<string, SearchProvider>;

  constructor(prisma: PrismaService, @Inject(REDIS) redis: Redis) {
    // Every provider's answers are recorded against the run and replayed from a recording (decision 0030).
    const all = [new CorpusSearchProvider(prisma), ...webProvidersFromEnv(environment(), redis)].map((p) => new RecordedSearchProvider(p));
    this.providers = new Map(all.map((p) => [p.name, p]));
  }

  /**
   * The providers a run asked for. A tenant may restrict them (`policy.searchProviders`): a run asking for
   * one outside that list fails with the reason rather than searching where the tenant does not allow.
   */
  forRun(names: readonly string[], runId: string, tenantAllowed?: readonly string[]): SearchProvider[] {
    const refused = tenantAllowed ? names.filter((n) => !tenantAllowed.includes(n)) : [];
    if (refused.length > 0) {
      throw new UnknownSearchProviderError(
        `Search provider(s) ${refused.join(', ')} not allowed for this tenant (allowed: ${tenantAllowed!.join(', ')})`,
        { runId },
      );
    }
    return names.map((name) => {
      const provider = this.providers.get(name);
      if (!provider) {
        throw new UnknownSearchProviderError(
          `Search provider "${name}" is not available (configured: ${[...this.providers.keys()].join(', ')}; web providers need TAVILY_API_KEY, BRAVE_API_KEY or SEARXNG_URL)`,
          { runId },
        );
      }
      return provider;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dossier/db';
import { CorpusSearchProvider, type SearchProvider } from '@dossier/sources';
import { UnknownSearchProviderError } from './unknown-provider.error';

/** The search providers a run may name. Web providers (Tavily, Brave, SearXNG) join with the web issue. */
@Injectable()
export class SearchProviders {
  private readonly providers: ReadonlyMap<string, SearchProvider>;

  constructor(prisma: PrismaService) {
    const corpus = new CorpusSearchProvider(prisma);
    this.providers = new Map([[corpus.name, corpus]]);
  }

  get(name: string, runId: string): SearchProvider {
    const provider = this.providers.get(name);
    if (!provider) {
      throw new UnknownSearchProviderError(`Search provider "${name}" is not available (have: ${[...this.providers.keys()].join(', ')})`, { runId });
    }
    return provider;
  }
}

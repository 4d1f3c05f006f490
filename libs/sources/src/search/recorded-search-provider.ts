import { z } from 'zod';
import { recorded } from '@dossier/db';
import { SearchHitSchema, type SearchHit, type SearchProvider, type SearchQuery } from './search-provider';

const HITS = z.array(SearchHitSchema);

/** The provider that searches the tenant's own ingested documents: never cached, since an ingest changes its answers. */
const CORPUS = 'corpus';

/**
 * A search provider whose answers are recorded against the run's step and replayed from a recording (decision 0030).
 * Web providers' answers are also the tenant's search cache: the same query within the tenant's TTL (default 24 h) is
 * answered from an earlier run's recording unless the run asks for fresh answers (`freshSearch`).
 */
export class RecordedSearchProvider implements SearchProvider {
  readonly name: string;

  constructor(private readonly inner: SearchProvider) {
    this.name = inner.name;
  }

  search(query: SearchQuery): Promise<SearchHit[]> {
    const { query: text, collection, limit } = query;
    return recorded(
      {
        kind: 'search',
        // No tenant id: the tenant is the recording's scope, and an imported run asks the same in its new tenant.
        request: { provider: this.name, query: text, collection: collection ?? null, limit },
        name: `${this.name} search "${text.slice(0, 200)}"`,
      },
      HITS,
      () => this.inner.search(query),
      { cache: this.name !== CORPUS },
    );
  }
}

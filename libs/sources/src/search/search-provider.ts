import { z } from 'zod';

export const SearchQuerySchema = z.strictObject({
  tenantId: z.uuid(),
  query: z.string().trim().min(1).max(2000),
  /** Only this collection (corpus provider); web providers ignore it. */
  collection: z.string().min(1).max(120).optional(),
  limit: z.int().min(1).max(100),
});
export type SearchQuery = z.input<typeof SearchQuerySchema>;

export const SearchHitSchema = z.strictObject({
  provider: z.string().min(1),
  documentId: z.uuid().optional(),
  url: z.string().min(1),
  title: z.string(),
  /** Plain text, no markup. */
  snippet: z.string(),
  /** 1-based position in this provider's answer. */
  rank: z.int().min(1),
  /** Provider-specific relevance, higher is better; comparable only within one provider. */
  score: z.number(),
  origin: z.enum(['corpus', 'web']),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

/** One search backend (corpus, Tavily, Brave, SearXNG, ...). Every implementation filters by tenant. */
export interface SearchProvider {
  readonly name: string;
  search(query: SearchQuery): Promise<SearchHit[]>;
}

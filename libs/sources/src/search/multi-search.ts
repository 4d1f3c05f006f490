import { ReplayAnswerMissingError } from '@dossier/errors';
import { canonicalUrl } from '../policy/canonical-url';
import { SearchQuerySchema, type SearchHit, type SearchProvider, type SearchQuery } from './search-provider';

/** Reciprocal-rank fusion constant (Cormack et al.; also the source-policy stage's). */
export const RRF_K = 60;

/** A hit after merging: the best-ranked provider's hit, plus who else found the same page. */
export interface MergedSearchHit extends SearchHit {
  /** The de-duplication key (`canonicalUrl(url)`). */
  canonicalUrl: string;
  /** Every provider that returned this page, best rank first (then in the order providers were given). */
  providers: string[];
}

export interface MultiSearchResult {
  /** At most `query.limit`, best first; `rank` is the position in this list, `score` the fused score in 0..1. */
  hits: MergedSearchHit[];
  /** Providers that failed while others answered. */
  errors: { provider: string; error: unknown }[];
}

/**
 * Asks every provider at once and merges their answers. Hits are de-duplicated by canonical URL (a page
 * with tracking parameters from one provider is the same page without them from another); each keeps
 * its best-ranked provider's title, snippet, url and documentId. Ordered by reciprocal-rank fusion:
 * the sum over providers of 1/(k + rank), so a page near the top for several providers comes first
 * (ties: best single rank, then the canonical URL). `score` is that sum over its maximum (first for
 * every provider), in 0..1. A failing provider is reported in `errors` and the rest still count; when
 * every provider fails, the first provider's error is thrown. No providers: no hits.
 */
export async function searchAll(providers: readonly SearchProvider[], input: SearchQuery): Promise<MultiSearchResult> {
  const query = SearchQuerySchema.parse(input);
  const settled = await Promise.allSettled(providers.map((p) => p.search(query)));
  const errors: MultiSearchResult['errors'] = providers.flatMap((p, i) => {
    const s = settled[i];
    return s?.status === 'rejected' ? [{ provider: p.name, error: s.reason as unknown }] : [];
  });
  // A replay whose recording lacks a provider's answer must stop, not go on with the other providers' hits alone.
  const gap = errors.find((e) => e.error instanceof ReplayAnswerMissingError);
  if (gap) throw gap.error;
  const [firstError] = errors;
  if (firstError && errors.length === providers.length) throw firstError.error;

  interface Entry {
    key: string;
    best: SearchHit;
    bestOrder: number;
    /** provider name → its best rank for this page */
    ranks: Map<string, { rank: number; order: number }>;
  }
  const entries = new Map<string, Entry>();
  settled.forEach((s, order) => {
    if (s.status !== 'fulfilled') return;
    for (const hit of s.value) {
      const key = canonicalUrl(hit.url);
      const entry = entries.get(key);
      if (!entry) {
        entries.set(key, { key, best: hit, bestOrder: order, ranks: new Map([[hit.provider, { rank: hit.rank, order }]]) });
        continue;
      }
      const seen = entry.ranks.get(hit.provider);
      if (!seen || hit.rank < seen.rank) entry.ranks.set(hit.provider, { rank: hit.rank, order });
      if (hit.rank < entry.best.rank || (hit.rank === entry.best.rank && order < entry.bestOrder)) {
        entry.best = hit;
        entry.bestOrder = order;
      }
    }
  });

  const answered = settled.filter((s) => s.status === 'fulfilled').length;
  const maxFused = answered / (RRF_K + 1);
  const fused = [...entries.values()].map((e) => ({
    entry: e,
    fused: [...e.ranks.values()].reduce((sum, r) => sum + 1 / (RRF_K + r.rank), 0),
  }));
  fused.sort(
    (a, b) =>
      b.fused - a.fused || a.entry.best.rank - b.entry.best.rank || (a.entry.key < b.entry.key ? -1 : a.entry.key > b.entry.key ? 1 : 0),
  );

  const hits = fused.slice(0, query.limit).map(({ entry, fused: sum }, i): MergedSearchHit => ({
    ...entry.best,
    rank: i + 1,
    score: maxFused > 0 ? Math.min(1, sum / maxFused) : 0,
    canonicalUrl: entry.key,
    providers: [...entry.ranks.entries()].sort((a, b) => a[1].rank - b[1].rank || a[1].order - b[1].order).map(([name]) => name),
  }));
  return { hits, errors };
}

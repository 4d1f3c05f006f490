import type { SourceRecordRow } from '@dossier/db';
import { RRF_K } from '@dossier/sources';

export interface RankedSource {
  canonicalUrl: string;
  score: number;
  records: SourceRecordRow[];
}

/**
 * Reciprocal-rank fusion over every query's hits (k = RRF_K, as in multi-provider search): a source
 * found by several queries, near the top, ranks first. Ties break on the URL so the order is deterministic.
 */
export function fuseRanks(records: readonly SourceRecordRow[]): RankedSource[] {
  const byUrl = new Map<string, RankedSource>();
  for (const r of records) {
    const entry = byUrl.get(r.canonicalUrl) ?? { canonicalUrl: r.canonicalUrl, score: 0, records: [] };
    entry.score += 1 / (RRF_K + r.rank);
    entry.records.push(r);
    byUrl.set(r.canonicalUrl, entry);
  }
  return [...byUrl.values()].sort((a, b) => b.score - a.score || a.canonicalUrl.localeCompare(b.canonicalUrl));
}

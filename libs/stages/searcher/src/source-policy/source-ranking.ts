import type { SourceRecordRow } from '@dossier/db';

export type AuthorityClass = 'official' | 'academic' | 'documentation' | 'news' | 'forum' | 'blog' | 'unknown';

const AUTHORITY_HINTS: [AuthorityClass, RegExp][] = [
  ['official', /\b(authority|ministry|government|gov|agency|council|municipal|regulator|official|minutes|department)\b/i],
  ['academic', /\b(university|universit|study|journal|research|institute|hydrolog|paper|thesis)\b/i],
  ['news', /\b(news|gazette|times|herald|tribune|press|daily|report(er)?|journal-news)\b/i],
  ['forum', /\b(forum|thread|discussion|community|reddit|board)\b/i],
  ['blog', /\b(blog|diary|notes|my-|personal)\b/i],
  ['documentation', /\b(faq|guide|manual|docs?|documentation|technical[- ]note|reference|timeline)\b/i],
];

/** A coarse authority class from the source's URL and title; shown in the report beside the source. */
export function authorityOf(url: string, title: string): AuthorityClass {
  const text = `${url} ${title}`.replace(/[_/.]+/g, ' ');
  for (const [cls, re] of AUTHORITY_HINTS) if (re.test(text)) return cls;
  return 'unknown';
}

export interface RankedSource {
  canonicalUrl: string;
  score: number;
  records: SourceRecordRow[];
}

/**
 * Reciprocal-rank fusion over every query's hits (k = 60): a source found by several queries, near the
 * top, ranks first. Ties break on the URL so the order is deterministic.
 */
export function fuseRanks(records: readonly SourceRecordRow[]): RankedSource[] {
  const byUrl = new Map<string, RankedSource>();
  for (const r of records) {
    const entry = byUrl.get(r.canonicalUrl) ?? { canonicalUrl: r.canonicalUrl, score: 0, records: [] };
    entry.score += 1 / (60 + r.rank);
    entry.records.push(r);
    byUrl.set(r.canonicalUrl, entry);
  }
  return [...byUrl.values()].sort((a, b) => b.score - a.score || a.canonicalUrl.localeCompare(b.canonicalUrl));
}

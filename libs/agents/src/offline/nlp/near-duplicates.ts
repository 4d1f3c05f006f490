import { stem, tokenize } from './tokens';

/*
 * Near-duplicate grouping by word-shingle Jaccard. Shingles keep stopwords and numbers, so "is not tall" and
 * "is tall", or "330 m" and "300 m", stay apart.
 */

export interface NearDuplicateOptions {
  /** Words per shingle; texts shorter than this are one shingle. */
  shingleSize?: number;
}

export function shingles(text: string, size = 2): Set<string> {
  const words = tokenize(text).map(stem);
  const out = new Set<string>();
  if (words.length === 0) return out;
  if (words.length <= size) {
    out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + size <= words.length; i++) out.add(words.slice(i, i + size).join(' '));
  return out;
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Groups items whose shingle Jaccard with a group's representative reaches `threshold` (leader clustering, in
 * input order): each item joins the first group whose representative is close enough, or starts a new one.
 * The first id of each group is its representative; groups are ordered by their representative's position.
 */
export function groupNearDuplicates(
  items: readonly { id: string; text: string }[],
  threshold = 0.8,
  options: NearDuplicateOptions = {},
): string[][] {
  const size = options.shingleSize ?? 2;
  const groups: { shingles: Set<string>; ids: string[] }[] = [];
  for (const item of items) {
    const s = shingles(item.text, size);
    const home = s.size === 0 ? undefined : groups.find((g) => jaccard(g.shingles, s) >= threshold);
    if (home) home.ids.push(item.id);
    else groups.push({ shingles: s, ids: [item.id] });
  }
  return groups.map((g) => g.ids);
}

import { contentStems } from './tokens';

/** Sparse term vector: stem → weight. */
export type TermVector = Map<string, number>;

export function termCounts(text: string): TermVector {
  const counts: TermVector = new Map();
  for (const s of contentStems(text)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return counts;
}

/** Smoothed idf, ln((1 + N) / (1 + df)) + 1: never zero, so a term shared by every text still counts. */
export function inverseDocumentFrequencies(docs: readonly TermVector[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [term, n] of df) idf.set(term, Math.log((1 + docs.length) / (1 + n)) + 1);
  return idf;
}

/** One tf-idf vector per text, the idf taken over the texts themselves. */
export function tfidfVectors(texts: readonly string[]): TermVector[] {
  const counts = texts.map(termCounts);
  const idf = inverseDocumentFrequencies(counts);
  return counts.map((c) => {
    const v: TermVector = new Map();
    for (const [term, tf] of c) v.set(term, tf * (idf.get(term) ?? 1));
    return v;
  });
}

function norm(v: TermVector): number {
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return Math.sqrt(sum);
}

/** Cosine similarity in [0, 1] for non-negative vectors; 0 when either is empty. */
export function cosine(a: TermVector, b: TermVector): number {
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, w] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += w * other;
  }
  return Math.min(1, dot / (na * nb));
}

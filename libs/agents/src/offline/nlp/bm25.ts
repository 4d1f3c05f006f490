import { contentStems, contentWords } from './tokens';

/*
 * Okapi BM25 over stemmed content words (k1 1.2, b 0.75, the non-negative idf of Lucene), for ranking
 * sentences against questions. Small and in-memory: one index per source or per step.
 */

export interface Bm25Hit<T extends string> {
  id: T;
  score: number;
  /** How many distinct query terms the document contains. */
  matched: number;
}

const K1 = 1.2;
const B = 0.75;

export class Bm25Index<T extends string> {
  private readonly docs = new Map<T, { terms: Map<string, number>; length: number; order: number }>();
  private readonly documentFrequency = new Map<string, number>();
  private totalLength = 0;
  private nextOrder = 0;

  /**
   * `terms` turns a text into the terms it is indexed and searched by: stemmed content words unless told otherwise; a
   * text's length is its number of content words, whatever other forms of them `terms` adds (nlp/match-terms: a word
   * found two ways is one word, not a longer sentence).
   */
  constructor(private readonly terms: (text: string) => string[] = contentStems) {}

  get size(): number {
    return this.docs.size;
  }

  /** Adds a document; adding an id again replaces its text. */
  add(id: T, text: string): void {
    this.remove(id);
    const terms = new Map<string, number>();
    const stems = this.terms(text);
    for (const s of stems) terms.set(s, (terms.get(s) ?? 0) + 1);
    for (const term of terms.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    const length = this.terms === contentStems ? stems.length : contentWords(text).length;
    this.docs.set(id, { terms, length, order: this.nextOrder++ });
    this.totalLength += length;
  }

  private remove(id: T): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    for (const term of doc.terms.keys()) {
      const df = (this.documentFrequency.get(term) ?? 1) - 1;
      if (df === 0) this.documentFrequency.delete(term);
      else this.documentFrequency.set(term, df);
    }
    this.totalLength -= doc.length;
    this.docs.delete(id);
  }

  idf(term: string): number {
    const n = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.docs.size - n + 0.5) / (n + 0.5));
  }

  /** Documents with a positive score, best first; ties keep insertion order. */
  search(query: string, limit: number = Number.POSITIVE_INFINITY): Bm25Hit<T>[] {
    return this.searchTerms(this.terms(query), limit);
  }

  /** As search, for terms already made (stems). */
  searchTerms(terms: readonly string[], limit: number = Number.POSITIVE_INFINITY): Bm25Hit<T>[] {
    const queryTerms = [...new Set(terms)];
    if (queryTerms.length === 0 || this.docs.size === 0) return [];
    const averageLength = this.totalLength / this.docs.size || 1;
    const hits: (Bm25Hit<T> & { order: number })[] = [];
    for (const [id, doc] of this.docs) {
      let score = 0;
      let matched = 0;
      for (const term of queryTerms) {
        const tf = doc.terms.get(term);
        if (tf === undefined) continue;
        matched++;
        score += (this.idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / averageLength));
      }
      if (score > 0) hits.push({ id, score, matched, order: doc.order });
    }
    hits.sort((a, b) => b.score - a.score || a.order - b.order);
    return hits.slice(0, Math.max(0, limit)).map(({ id, score, matched }) => ({ id, score, matched }));
  }
}

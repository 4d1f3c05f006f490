import { contentStems } from './tokens';

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
   * `terms` turns a text into the terms it is indexed and searched by: stemmed content words unless told otherwise.
   * `length` is a text's length for BM25's normalisation: its number of terms unless told otherwise. A `terms` that
   * adds other forms of a word (nlp/match-terms) passes the number of words, so that a word found two ways is one
   * word, not a longer sentence.
   */
  constructor(
    private readonly terms: (text: string) => string[] = contentStems,
    private readonly length: (text: string, terms: readonly string[]) => number = (_, terms) => terms.length,
  ) {}

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
    const length = this.length(text, stems);
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

  /** Whether a document holds a term (as `terms` made it). */
  hasTerm(id: T, term: string): boolean {
    return this.docs.get(id)?.terms.has(term) ?? false;
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

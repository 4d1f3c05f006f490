import { cosine, tfidfVectors } from './tfidf';

export interface MmrCandidate {
  id: string;
  relevance: number;
  text: string;
}

/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, 1998): picks, one at a time, the candidate with the best
 * λ·relevance − (1−λ)·(max similarity to those already picked). Relevance is scaled to [0, 1] by the best
 * candidate; similarity is tf-idf cosine over the candidates' stems. Ties go to the earlier candidate.
 */
export function mmr(candidates: readonly MmrCandidate[], limit: number, lambda = 0.7): string[] {
  const unique: MmrCandidate[] = [];
  const ids = new Set<string>();
  for (const c of candidates) {
    if (ids.has(c.id)) continue;
    ids.add(c.id);
    unique.push(c);
  }
  const maxRelevance = Math.max(0, ...unique.map((c) => c.relevance));
  const relevance = unique.map((c) => (maxRelevance > 0 ? Math.max(0, c.relevance) / maxRelevance : 0));
  const vectors = tfidfVectors(unique.map((c) => c.text));
  const maxSimilarity = unique.map(() => 0);
  const picked: string[] = [];
  const available = new Set(unique.map((_, i) => i));
  while (picked.length < limit && available.size > 0) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const i of available) {
      const score = lambda * relevance[i] - (1 - lambda) * maxSimilarity[i];
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    available.delete(best);
    picked.push(unique[best].id);
    for (const i of available) maxSimilarity[i] = Math.max(maxSimilarity[i], cosine(vectors[i], vectors[best]));
  }
  return picked;
}

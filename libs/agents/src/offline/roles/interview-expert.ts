import { readerSentence } from '../nlp/prose-faults';
import { splitExcerpt } from '../nlp/sentences';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { InterviewExpertInput, InterviewExpertOutput } from '../../roles/interview-expert';

/**
 * Offline: extractive. From each evidence item, the sentence sharing most terms with the question, verbatim and cited;
 * best first, each sentence once.
 */
export function interviewExpertOffline(input: InterviewExpertInput): InterviewExpertOutput {
  const asked = statementStems(input.asked);
  const scored = input.evidence.flatMap((e, order) => {
    // Boilerplate and fragments are never an answer; citation markers are not part of the sentence shown (0046).
    const sentences = splitExcerpt(e.excerpt).flatMap((u) =>
      u.kind === 'sentence' || u.kind === 'list-item' ? (readerSentence(u.text) ?? []) : [],
    );
    let best: { text: string; score: number } | null = null;
    for (const text of sentences) {
      const words = statementStems(text);
      const score = [...asked].filter((w) => words.has(w)).length;
      if (!best || score > best.score) best = { text, score };
    }
    return best ? [{ ...best, id: e.id, order }] : [];
  });
  const seen = new Set<string>();
  const sentences = scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((s) => {
      const key = normalizeWhitespace(s.text).toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, input.maxSentences)
    .map((s) => ({ text: s.text, evidenceIds: [s.id] }));
  return { sentences };
}

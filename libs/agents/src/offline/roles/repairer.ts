import { entails } from '../nlp/entailment';
import { readerSentence } from '../nlp/prose-faults';
import { splitExcerpt } from '../nlp/sentences';
import { normalizeWhitespace } from '../nlp/statement-terms';
import { RepairSentence, RepairerInput, RepairFix, RepairerOutput } from '../../roles/repairer';

/** A rewrite must keep at least this much of the sentence's content (entailment score of the original by the candidate). */
export const REWRITE_THRESHOLD = 0.5;

function offlineOne(sentence: RepairSentence, evidence: RepairerInput['evidence']): RepairFix {
  const cited = new Set(sentence.evidenceIds);
  // Cited evidence first, so on equal scores the rewrite keeps the sentence's own sources.
  const ordered = [...evidence.filter((e) => cited.has(e.id)), ...evidence.filter((e) => !cited.has(e.id))];
  let best: { text: string; raw: string; score: number } | null = null;
  for (const e of ordered) {
    for (const unit of splitExcerpt(e.excerpt)) {
      if (unit.kind !== 'sentence' && unit.kind !== 'list-item') continue;
      // Boilerplate and fragments never become report sentences, not even as a repair (decision 0046).
      const shown = readerSentence(unit.text);
      if (shown === null) continue;
      const score = entails(sentence.text, [shown]).score;
      if (best === null || score > best.score) best = { text: shown, raw: unit.text, score };
    }
  }
  if (best === null || best.score < REWRITE_THRESHOLD) return { action: 'drop' };
  const key = normalizeWhitespace(best.raw).toLowerCase();
  const evidenceIds = ordered.filter((e) => normalizeWhitespace(e.excerpt).toLowerCase().includes(key)).map((e) => e.id);
  return { action: 'rewrite', text: best.text, evidenceIds: [...new Set(evidenceIds)] };
}

export function repairerOffline(input: RepairerInput): RepairerOutput {
  return { fixes: input.sentences.map((s) => offlineOne(s, input.evidence)) };
}

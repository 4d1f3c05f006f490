import { z } from 'zod';
import { isBoilerplate } from '../nlp/boilerplate';
import { readerSentence } from '../nlp/prose-faults';
import { isUnattributedQuote } from '../nlp/quotation';
import { splitUnits } from '../nlp/sentences';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { CitedSentence } from '../../roles/schemas';
import { SectionWriterInput, SectionWriterOutput, statesContested } from '../../roles/section-writer';

const MAX_PER_PARAGRAPH = 4;
// A sentence opening with one of these needs the sentence before it to make sense on its own.
const ANAPHORA = /^(?:it|its|this|these|that|those|they|their|he|she|his|her|such|the latter|the former)\b/i;

type Sentence = z.infer<typeof CitedSentence>;

/**
 * Sentences (and list items) of an excerpt as a reader sees them: verbatim but for citation markers, and null for
 * boilerplate and fragments, which never become report sentences (decision 0046).
 */
function sentencesOf(excerpt: string): (string | null)[] {
  return splitUnits(excerpt)
    .filter((u) => u.kind === 'sentence' || u.kind === 'list-item')
    .map((u) => readerSentence(u.text));
}

function overlap(claimWords: Set<string>, sentence: string): number {
  if (claimWords.size === 0) return 0;
  const words = statementStems(sentence);
  return [...claimWords].filter((w) => words.has(w)).length / claimWords.size;
}

/** n sentences in ⌈n/4⌉ paragraphs of near-equal size (2–4 each once n ≥ 2). */
export function paragraphSizes(n: number): number[] {
  if (n === 0) return [];
  const k = Math.ceil(n / MAX_PER_PARAGRAPH);
  const base = Math.floor(n / k);
  return Array.from({ length: k }, (_, i) => base + (i < n % k ? 1 : 0));
}

export function sectionWriterOffline(input: SectionWriterInput): SectionWriterOutput {
  const excerpts = new Map(input.evidence.map((e) => [e.id, e.excerpt]));
  const written: Sentence[] = [];
  const seen = new Set<string>();
  const emit = (sentence: string, evidenceIds: string[]) => {
    const key = normalizeWhitespace(sentence).toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    written.push({ text: sentence, evidenceIds });
  };

  for (const claim of input.claims) {
    const cited = [...new Set(claim.evidenceIds)].flatMap((id) => {
      const excerpt = excerpts.get(id);
      return excerpt === undefined ? [] : [{ id, excerpt }];
    });
    if (cited.length === 0) continue;
    const ids = cited.map((e) => e.id);
    const claimWords = statementStems(claim.statement);
    let best: { id: string; sentences: (string | null)[]; index: number; score: number } | null = null;
    for (const { id, excerpt } of cited) {
      const sentences = sentencesOf(excerpt);
      sentences.forEach((s, index) => {
        if (s === null) return;
        // A sentence of an uncontested claim's excerpt can still state a disputed position: that goes to the
        // disagreements section, so the claim is written from another of its sentences or not at all.
        if (isBoilerplate(s) || isUnattributedQuote(s) || statesContested(input, s)) return;
        const score = overlap(claimWords, s);
        if (best === null || score > best.score) best = { id, sentences, index, score };
      });
    }
    if (best === null) continue;
    const chosen: { id: string; sentences: (string | null)[]; index: number } = best;
    const sentence = chosen.sentences[chosen.index]!;
    if (chosen.index > 0 && ANAPHORA.test(sentence)) {
      const before = chosen.sentences[chosen.index - 1];
      // Without the sentence it refers to, an anaphoric sentence does not stand on its own: when that one is boilerplate
      // or a fragment, or states a disputed position, neither is written.
      if (before === null || before === undefined || statesContested(input, before)) continue;
      emit(before, [chosen.id]);
    }
    // Near-duplicate evidence merged into this claim backs the same sentence: one sentence cites all of it.
    emit(sentence, ids);
  }

  const paragraphs: SectionWriterOutput['paragraphs'] = [];
  let at = 0;
  for (const size of paragraphSizes(written.length)) {
    paragraphs.push({ sentences: written.slice(at, at + size) });
    at += size;
  }
  return { paragraphs };
}

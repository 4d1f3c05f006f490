import { z } from 'zod';
import { isBoilerplate } from '../nlp/boilerplate';
import { attributed } from '../nlp/first-person';
import { itemsAfter, joinedList, leadInReads } from '../nlp/lists';
import { readerSentence, withoutCitationMarkers } from '../nlp/prose-faults';
import { isUnattributedQuote, quotedWithSpeaker } from '../nlp/quotation';
import { splitUnits } from '../nlp/sentences';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { CitedSentence } from '../../roles/schemas';
import { SectionWriterInput, SectionWriterOutput, statesContested } from '../../roles/section-writer';

const MAX_PER_PARAGRAPH = 4;
// A sentence opening with one of these needs the sentence before it to make sense on its own.
const ANAPHORA = /^(?:it|its|this|these|that|those|they|their|he|she|his|her|such|the latter|the former)\b/i;

type Sentence = z.infer<typeof CitedSentence>;

/**
 * Sentences (and list items) of an excerpt as a reader sees them: verbatim but for citation markers, and null for boilerplate and fragments, which never become report sentences (decision 0046);
 * a first-person sentence is attributed to its source's author in our words, or null when the source names none
 * (decision 0102).
 */
function sentencesOf(excerpt: string, voice: string | undefined): (string | null)[] {
  const units = splitUnits(excerpt);
  const out: (string | null)[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (u.kind !== 'sentence' && u.kind !== 'list-item') continue;
    // A lead-in is joined with its list into one sentence, or quoted over its code example, which the report shows as
    // code under it (decision 0102); its items and its code are not sentences of their own.
    if (u.kind === 'sentence' && leadInReads(u.text)) {
      const items = itemsAfter(units, i);
      if (units[i + 1]?.kind === 'code') {
        out.push(attributed(withoutCitationMarkers(u.text), voice));
        i++;
        continue;
      }
      if (items.length > 0) {
        const joined = joinedList(
          u.text,
          items.map((x) => x.text),
        );
        out.push(joined === null ? null : attributed(joined, voice));
        i += items.length;
        continue;
      }
    }
    // A whole quotation is its speaker's words, named from the sentence before or after it, or none (decision 0105).
    const quoted = quotedWithSpeaker(u.text, units[i - 1]?.text, units[i + 1]?.text);
    const shown = quoted === null ? null : readerSentence(quoted);
    out.push(shown === null ? null : quoted === u.text ? attributed(shown, voice) : shown);
  }
  return out;
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

/** A sentence written, and where it stands in its source: the excerpt's offset, then its place in the excerpt. */
interface Placed extends Sentence {
  source: string;
  at: number;
  index: number;
}

/**
 * The section's sentences grouped by source, the sources in the order of their first sentence (the outline's order:
 * the most direct answer's source first), each source's sentences in the source's own order, so a paragraph reads as
 * a passage (issue 25 item 4, decision 0089). A source's sentences make paragraphs of two to four; sources that gave one
 * sentence each share a paragraph (of up to four, placed where its last sentence's source came).
 */
function paragraphsBySource(written: readonly Placed[]): SectionWriterOutput['paragraphs'] {
  const bySource = new Map<string, Placed[]>();
  for (const s of written) bySource.set(s.source, [...(bySource.get(s.source) ?? []), s]);
  const paragraphs: SectionWriterOutput['paragraphs'] = [];
  let singles: Sentence[] = [];
  const flush = () => {
    if (singles.length > 0) paragraphs.push({ sentences: singles });
    singles = [];
  };
  for (const group of bySource.values()) {
    const ordered = [...group].sort((a, b) => a.at - b.at || a.index - b.index).map((s) => ({ text: s.text, evidenceIds: s.evidenceIds }));
    if (ordered.length === 1) {
      singles.push(ordered[0]!);
      if (singles.length >= MAX_PER_PARAGRAPH) flush();
      continue;
    }
    let at = 0;
    for (const size of paragraphSizes(ordered.length)) {
      paragraphs.push({ sentences: ordered.slice(at, at + size) });
      at += size;
    }
  }
  flush();
  return paragraphs;
}

export function sectionWriterOffline(input: SectionWriterInput): SectionWriterOutput {
  const excerpts = new Map(input.evidence.map((e) => [e.id, e.excerpt]));
  const voices = new Map(input.evidence.map((e) => [e.id, e.voice]));
  const placeOf = new Map(input.evidence.map((e) => [e.id, { source: e.sourceId ?? e.id, at: e.start ?? 0 }]));
  const written: Placed[] = [];
  const seen = new Set<string>();
  const emit = (sentence: string, evidenceIds: string[], from: string, index: number) => {
    const key = normalizeWhitespace(sentence).toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    const place = placeOf.get(from) ?? { source: from, at: 0 };
    written.push({ text: sentence, evidenceIds, source: place.source, at: place.at, index });
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
      const sentences = sentencesOf(excerpt, voices.get(id));
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
      emit(before, [chosen.id], chosen.id, chosen.index - 1);
    }
    // Near-duplicate evidence merged into this claim backs the same sentence: one sentence cites all of it.
    emit(sentence, ids, chosen.id, chosen.index);
  }
  return { paragraphs: paragraphsBySource(written) };
}

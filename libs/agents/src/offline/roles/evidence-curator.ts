import { isBoilerplate } from '../nlp/boilerplate';
import { isLeadIn, itemsAfter, joinedList, leadInReads } from '../nlp/lists';
import { proseFault, readerSentence, withoutCitationMarkers } from '../nlp/prose-faults';
import { pointsBack } from '../nlp/back-reference';
import { isUnattributedQuote, isWholeQuote, quotedWithSpeaker, speakerNamed } from '../nlp/quotation';
import { mmr } from '../nlp/mmr';
import { PassageScorer, definedLabels, endsAsQuestion, passageContexts } from '../passage-relevance';
import { extractQuantities } from '../nlp/quantities';
import { listMarkerLength, splitUnits, type Unit as TextUnit } from '../nlp/sentences';
import { normalizeWhitespace } from '../nlp/statement-terms';
import { contentStems, tokenize } from '../nlp/tokens';
import { EvidenceCuratorInput, EvidenceCuratorOutput } from '../../roles/evidence-curator';

const MIN_WORDS = 5;
const SENTENCE_END = /[.!?:;…]["'”’»)\]]*$/;
const MIN_LIST_WORDS = 6;
const MAX_WORDS = 120;
/**
 * A list joined with its lead-in is one excerpt up to this many words (decision 0108): a longer one makes a claim too
 * long for the prompts that quote claims (the fake model's 8,192-token window, 0102).
 */
const MAX_JOINED_WORDS = 60;
/** A sentence must score at least this share of the best sentence's score. */
const RELATIVE_FLOOR = 0.2;
/** Sentences with figures are usually the facts a report needs. */
const FIGURE_BONUS = 1.15;
/** A sub-question scoring at least this share of a sentence's best score is the question it answers. */
const SUB_QUESTION_SHARE = 0.5;
// A sentence opening with one of these leans on the one before; the excerpt then takes both.

interface Candidate {
  unit: TextUnit;
  /** A list joined with its lead-in, or a code example's introduction: what the claim states (not the bullets, not the code). */
  composite?: boolean;
  /** Index of the unit in the document. */
  position: number;
  start: number;
  /** Where the excerpt ends: past the unit when the sentence after it names a quotation's speaker. */
  end: number;
  /**
   * The statement, when it is not the excerpt: a whole quotation's speaker's words, attributed ('X said: “…”'), without
   * the sentence naming them; a list's lead-in and items joined into one sentence.
   */
  quoted?: string;
}

function wordCount(s: string): number {
  return tokenize(s).length;
}

function eligible(u: TextUnit): boolean {
  if (u.kind === 'heading' || u.kind === 'table-row' || u.kind === 'code') return false;
  const words = wordCount(u.text);
  if (u.kind === 'list-item' && words < MIN_LIST_WORDS) return false;
  // A sentence ends like one: running heads, page footers and title lines of extracted PDFs do not.
  if (u.kind === 'sentence' && !SENTENCE_END.test(withoutCitationMarkers(u.text))) return false;
  // A question states nothing: an FAQ's "Is my Velora Sport 900 affected?" became a claim disputing "The Velora Sport 900
  // is not affected." (decision 0169). It is the label of the answer after it (passageContexts).
  if (endsAsQuestion(u.text)) return false;
  // Boilerplate and fragments (a lead-in without its list, an item without its lead-in, program text, a cut sentence) are
  // never evidence (decision 0046); citation markers inside the sentence do not make it one.
  return (
    words >= MIN_WORDS &&
    words <= MAX_WORDS &&
    !isBoilerplate(u.text) &&
    (!isUnattributedQuote(u.text) || isWholeQuote(u.text)) &&
    readerSentence(u.kind === 'list-item' ? u.text.slice(listMarkerLength(u.text)) : u.text) !== null
  );
}

/**
 * The list a dangling sentence points at — the lead-in and items right before it, which the sentence's "items 1–4"
 * refers to — as one sentence with the span it covers; null when the sentence is no such pointer or no list precedes it.
 */
function listPointedAt(units: readonly TextUnit[], position: number): { joined: string; start: number } | null {
  const unit = units[position]!;
  if (proseFault(withoutCitationMarkers(unit.text))?.kind !== 'dangling-reference') return null;
  let at = position - 1;
  while (at >= 0 && units[at]!.kind === 'list-item') at--;
  const leadIn = units[at];
  if (at < 0 || at === position - 1 || leadIn?.kind !== 'sentence' || !isLeadIn(leadIn.text)) return null;
  const items = itemsAfter(units, at);
  if (items.length < 2 || at + items.length + 1 !== position) return null;
  const joined = joinedList(
    leadIn.text,
    items.map((i) => i.text),
  );
  // As long as main's joined lists at most (decision 0108: the prompts that quote claims).
  return joined === null || wordCount(joined) > MAX_JOINED_WORDS ? null : { joined, start: leadIn.start };
}

/** The lead-in at `at` with its code example or its list of clauses, as one unit stating what a reader sees, or null. */
function leadInComposite(units: readonly TextUnit[], at: number): TextUnit | null {
  const lead = units[at]!;
  if (!leadInReads(lead.text)) return null;
  const next = units[at + 1];
  if (next?.kind === 'code') {
    const words = wordCount(lead.text);
    return words >= MIN_WORDS && words <= MAX_WORDS ? { text: lead.text, start: lead.start, end: next.end, kind: 'sentence' } : null;
  }
  const items = itemsAfter(units, at);
  if (items.length === 0 || items.some((i) => eligible(i))) return null;
  const joined = joinedList(
    lead.text,
    items.map((i) => i.text),
  );
  if (joined === null || wordCount(joined) > MAX_JOINED_WORDS) return null;
  return { text: joined, start: lead.start, end: items[items.length - 1]!.end, kind: 'sentence' };
}

export function evidenceCuratorOffline(input: EvidenceCuratorInput): EvidenceCuratorOutput {
  const source = input.source.text;
  const units = splitUnits(source);
  const candidates: Candidate[] = [];
  // The sentence next to a unit in the same paragraph (no blank line between them), or undefined.
  const neighbour = (position: number, step: -1 | 1): TextUnit | undefined => {
    const n = units[position + step];
    const u = units[position]!;
    if (n?.kind !== 'sentence') return undefined;
    const between = step < 0 ? source.slice(n.end, u.start) : source.slice(u.end, n.start);
    return /\n\s*\n/.test(between) ? undefined : n;
  };
  units.forEach((unit, position) => {
    // A sentence pointing at the list before it ("Estimates that add items 1–4 to the metered volume …") is a fragment;
    // the list it points at is evidence: its lead-in and items, joined by the writer into one sentence (decision 0105).
    const pointed = unit.kind === 'sentence' ? listPointedAt(units, position) : null;
    if (pointed) {
      candidates.push({
        unit: { ...unit, text: `${pointed.joined} ${unit.text}` },
        position,
        start: pointed.start,
        // The excerpt holds the list and the sentence pointing at it: the writer shows the list, joined (the pointer
        // stays a fragment), and the claim keeps what the pointer says the list is for ("Estimates that add items 1–4 …").
        end: unit.end,
        quoted: `${pointed.joined} ${normalizeWhitespace(unit.text)}`,
      });
      return;
    }
    // A lead-in is never quoted alone (0046). With the code example it introduces, or with a list of clauses that are no
    // sentences on their own, it is one excerpt (decision 0108): scored as what a reader sees (the introduction, the
    // joined list), quoted from the lead-in to the block's or the list's end. A list whose items are sentences is left
    // as it was: each item is a candidate of its own.
    if (unit.kind === 'sentence' && isLeadIn(unit.text)) {
      const composite = leadInComposite(units, position);
      if (composite !== null) candidates.push({ unit: composite, position, start: unit.start, end: composite.end, composite: true });
      return;
    }
    if (!eligible(unit)) return;
    // A list item's excerpt starts after its bullet, so the excerpt reads as a statement.
    let start = unit.kind === 'list-item' ? unit.start + listMarkerLength(unit.text) : unit.start;
    let end = unit.end;
    // A whole quotation is evidence with the sentence that names its speaker, or not at all (decision 0105); its
    // statement is the quotation attributed, not both sentences.
    if (unit.kind === 'sentence' && isWholeQuote(unit.text)) {
      const before = neighbour(position, -1);
      const after = neighbour(position, 1);
      if (speakerNamed(before?.text)) start = before!.start;
      else if (speakerNamed(after?.text)) end = after!.end;
      else return;
      const quoted = quotedWithSpeaker(unit.text, before?.text, after?.text);
      if (quoted === null || wordCount(start === unit.start ? after!.text : before!.text) > MAX_WORDS) return;
      candidates.push({ unit, position, start, end, quoted });
      return;
    }
    candidates.push({ unit, position, start, end });
  });
  if (candidates.length === 0) return { fragments: [] };

  const contexts = passageContexts(source, units);
  const defined = definedLabels(units, source);
  const scorer = new PassageScorer(
    candidates.map((c) => ({ text: c.unit.text, context: contexts[c.position]!, defines: defined[c.position] })),
  );
  // The source's title is not part of the query: a long title (":mod:`functools` --- Higher-order functions and operations
  // on callable objects") made the sentences that repeat it outrank the ones that answer, and the floor cut those.
  const queries: { id: string | null; text: string }[] = [{ id: null, text: input.question }, ...input.questions];
  const best = new Map<number, { score: number; questionId: string | null; questionScore: number }>();
  for (const q of queries) {
    const queryTerms = new Set(contentStems(q.text)).size;
    // One shared rare word is not enough for a long question.
    const hits = scorer.score(q.text).filter((hit) => hit.matched >= Math.min(2, queryTerms));
    for (const hit of hits) {
      const i = hit.index;
      const score = hit.score * (extractQuantities(candidates[i].unit.text).length > 0 ? FIGURE_BONUS : 1);
      const current = best.get(i) ?? { score: 0, questionId: null, questionScore: 0 };
      current.score = Math.max(current.score, score);
      if (q.id !== null && score > current.questionScore) {
        current.questionId = q.id;
        current.questionScore = score;
      }
      best.set(i, current);
    }
  }
  const top = Math.max(0, ...[...best.values()].map((b) => b.score));
  const scored = [...best.entries()]
    .filter(([, b]) => b.score >= top * RELATIVE_FLOOR && b.score > 0)
    .map(([i, b]) => ({ c: candidates[i], b }));
  // MMR ids are positions in `scored`.
  const picked = mmr(
    scored.map(({ c, b }, k) => ({ id: String(k), relevance: b.score, text: c.unit.text })),
    input.maxFragments,
  ).map((k) => scored[Number(k)]);
  const pickedPositions = new Set(picked.map(({ c }) => c.position));

  const fragments = picked.map(({ c, b }) => {
    let start = c.start;
    const previous = units[c.position - 1];
    // A sentence pointing back ("Its level …", "Together these two factors …") is excerpted with the sentence it points
    // at, so the writer can show the two together (decision 0112).
    if (
      pointsBack(c.unit.text) !== null &&
      previous?.kind === 'sentence' &&
      !pickedPositions.has(c.position - 1) &&
      c.unit.kind === 'sentence'
    ) {
      start = previous.start;
    }
    const excerpt = source.slice(start, c.end);
    // The broad main question matches most sentences; credit the sub-question when it fits nearly as well.
    const questionId = b.questionScore >= b.score * SUB_QUESTION_SHARE ? b.questionId : null;
    return {
      start,
      end: c.end,
      excerpt,
      statement: normalizeWhitespace(c.quoted ?? (c.composite && start === c.start ? c.unit.text : excerpt)).slice(0, 4000),
      questionId,
      confidence: Math.round((0.3 + (0.7 * b.score) / top) * 1000) / 1000,
    };
  });
  fragments.sort((a, b) => a.start - b.start);
  return { fragments };
}

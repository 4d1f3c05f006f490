import { z } from 'zod';
import { pointsBack } from '../nlp/back-reference';
import { isBoilerplate } from '../nlp/boilerplate';
import { entails } from '../nlp/entailment';
import { attributed } from '../nlp/first-person';
import { itemsAfter, joinedList, leadInReads } from '../nlp/lists';
import { readerSentence, withoutCitationMarkers } from '../nlp/prose-faults';
import { isUnattributedQuote, quotedWithSpeaker } from '../nlp/quotation';
import { extractQuantities, isTime, type Quantity } from '../nlp/quantities';
import { splitExcerpt } from '../nlp/sentences';
import { themeHome } from '../nlp/paragraph-themes';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { CitedSentence } from '../../roles/schemas';
import { answersClause, clauseTerms } from './outline-architect';
import { SectionWriterInput, SectionWriterOutput, statesContested } from '../../roles/section-writer';

const MAX_PER_PARAGRAPH = 4;
/** A pointing sentence may lean on at most this many pointing sentences before it before the one that names its subject. */
const MAX_POINTER_CHAIN = 2;

type Sentence = z.infer<typeof CitedSentence>;

/**
 * Sentences (and list items) of an excerpt as a reader sees them: verbatim but for citation markers, and null for boilerplate and fragments, which never become report sentences (decision 0046);
 * a first-person sentence is attributed to its source's author in our words, or null when the source names none
 * (decision 0102).
 */
function sentencesOf(excerpt: string, voice: string | undefined): (string | null)[] {
  const units = splitExcerpt(excerpt);
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
  /** Its place in the order written: the outline's order of the claims, the most direct answer first. */
  rank: number;
}

/**
 * The section's sentences grouped by source, the sources in the order of their first sentence (the outline's order:
 * the most direct answer's source first), each source's sentences in the source's own order, so a paragraph reads as
 * a passage (issue 25 item 4, decision 0089), and a source's paragraphs in the order of their best claim (0152). A
 * source's sentences make paragraphs of two to four; a source that gave
 * one sentence has it placed by theme (`themeHome`, decision 0127): with the paragraph it shares a theme with, or with
 * the other such sentences of its theme, or alone. A sentence that points
 * back stays in the paragraph of the sentence before it; one that would open a paragraph or follow another source's
 * sentence is left out, and so is a paragraph of one sentence that does not answer the section's question (`alone`;
 * decision 0112).
 */
function paragraphsBySource(
  written: readonly Placed[],
  alone: (text: string) => boolean,
  title: string,
): SectionWriterOutput['paragraphs'] {
  const bySource = new Map<string, Placed[]>();
  for (const s of written) bySource.set(s.source, [...(bySource.get(s.source) ?? []), s]);
  const paragraphs: Placed[][] = [];
  // A source's only sentence, and how many paragraphs stood before it.
  const loose: { sentence: Placed; after: number }[] = [];
  for (const group of bySource.values()) {
    const ordered = [...group].sort((a, b) => a.at - b.at || a.index - b.index);
    if (ordered.length === 1) {
      loose.push({ sentence: ordered[0]!, after: paragraphs.length });
      continue;
    }
    // Blocks: a sentence with the pointing sentences after it; a paragraph break never falls inside one.
    const blocks: Placed[][] = [];
    for (const s of ordered) {
      const last = blocks[blocks.length - 1];
      if (last !== undefined && pointsBack(s.text) !== null) last.push(s);
      else blocks.push([s]);
    }
    const sizes = paragraphSizes(ordered.length);
    const own: Placed[][] = [];
    let current: Placed[] = [];
    const close = () => {
      if (current.length > 0) own.push(current);
      current = [];
    };
    for (const block of blocks) {
      // A block that would overfill the paragraph starts the next one.
      if (current.length >= 2 && current.length + block.length > (sizes[own.length] ?? MAX_PER_PARAGRAPH)) close();
      current.push(...block);
      if (current.length >= (sizes[own.length] ?? MAX_PER_PARAGRAPH)) close();
    }
    close();
    // A last sentence left alone joins the paragraph before it.
    const last = own[own.length - 1];
    if (own.length > 1 && last!.length === 1) own[own.length - 2]!.push(...own.pop()!);
    // The source's paragraphs in the outline's order of their best claim (decision 0152): the one holding the most
    // direct answer opens, each still in the source's own order. In page order, git-commit's --fixup paragraphs opened
    // the section asking how --amend fixes a commit, and the answer came four paragraphs later.
    const best = (paragraph: readonly Placed[]) => Math.min(...paragraph.map((p) => p.rank));
    own.sort((a, b) => best(a) - best(b));
    paragraphs.push(...own);
  }
  // One theme per paragraph (decision 0127): a source's only sentence goes to the paragraph whose theme it shares.
  const titleTerms = statementStems(title);
  const texts = (p: readonly Placed[]) => p.map((s) => s.text);
  const groups: { after: number; sentences: Placed[] }[] = [];
  for (const { sentence, after } of loose) {
    const home = themeHome(sentence.text, paragraphs.map(texts), titleTerms, MAX_PER_PARAGRAPH + 1);
    if (home !== null) {
      paragraphs[home]!.push(sentence);
      continue;
    }
    // The rest share a paragraph in the outline's order, four at most, placed where the first of them came.
    const last = groups[groups.length - 1];
    if (last && last.sentences.length < MAX_PER_PARAGRAPH) last.sentences.push(sentence);
    else groups.push({ after, sentences: [sentence] });
  }
  // A loose sentence left alone that does not answer the section's question on its own goes to the paragraph it shares
  // a word of theme with ("…closed to traffic on 4 April 2024 after engineers found corrosion …" with the paragraph on
  // the corroded bearings).
  for (const g of [...groups]) {
    const only = g.sentences[0]!;
    if (g.sentences.length > 1 || paragraphs.length === 0 || alone(only.text)) continue;
    // A section's only loose sentence was alone before any was placed by theme: 0112's rule leaves it out.
    if (loose.length === 1) continue;
    // Left alone by the others' moves, with no word of theme shared, it closes the paragraph before it (as a source's
    // last sentence left alone does):
    // the sentence it loses would be a key point as often as not (velora-recall's "The count covers only fires that
    // our crews attended.").
    const home = themeHome(only.text, paragraphs.map(texts), titleTerms, MAX_PER_PARAGRAPH + 1, 1) ?? Math.max(0, g.after - 1);
    paragraphs[home]!.push(only);
    groups.splice(groups.indexOf(g), 1);
  }
  const placed: Placed[][] = [];
  for (let i = 0; i <= paragraphs.length; i++) {
    for (const g of groups) if (g.after === i) placed.push(g.sentences);
    if (i < paragraphs.length) placed.push(paragraphs[i]!);
  }
  const kept = placed.map((p) => standing(p).map((s) => ({ text: s.text, evidenceIds: s.evidenceIds }))).filter((p) => p.length > 0);
  // A paragraph of one sentence among others is read on its own: it stays when it answers the section's question
  // (decision 0112). A section of one paragraph is what the outline chose for it; a section keeps two sentences at least.
  const read = kept.length > 1 ? kept.filter((p) => p.length > 1 || alone(p[0]!.text)) : kept;
  const shown = read.reduce((n, p) => n + p.length, 0) >= 2 || read.length === kept.length ? read : kept;
  return shown.map((sentences) => ({ sentences }));
}

/** A paragraph's sentences less those that point back to nothing: at its start, or after another source's sentence. */
function standing(paragraph: readonly Placed[]): Placed[] {
  const kept: Placed[] = [];
  for (const s of paragraph) {
    const before = kept[kept.length - 1];
    if (pointsBack(s.text) !== null && (before === undefined || before.source !== s.source)) continue;
    kept.push(s);
  }
  return kept;
}

/** The figures of a sentence that are not points in time, and all of them. */
function figuresOf(text: string): { measures: Quantity[]; all: Quantity[] } {
  const all = extractQuantities(text);
  return { measures: all.filter((q) => !isTime(q)), all };
}

/** Whether two figures are one: the same value and unit, or the same year. */
function sameFigure(x: Quantity, y: Quantity): boolean {
  return isTime(x) ? isTime(y) && x.value === y.value && x.kind === y.kind : x.unit === y.unit && x.kind === y.kind && x.value === y.value;
}

/**
 * Every figure of `a` stated in `b`, and `b` adds none but percentages ("38.1 km², 18% less than the 46.5 km²": the share
 * restates the two areas); a figure of its own ("42–50 million m³" beside the 38 and 52 million) is a fact of its own.
 */
function figuresWithin(a: readonly Quantity[], b: readonly Quantity[]): boolean {
  return a.every((x) => b.some((y) => sameFigure(x, y))) && b.every((y) => y.kind === 'percent' || a.some((x) => sameFigure(x, y)));
}

/** Two figures that are not dates make a statement of fact another source may state in its own words. */
const MIN_SHARED_FIGURES = 2;

/**
 * The same fact from two sources is stated once (decision 0112): two sentences of different sources whose figures are
 * the same (at least two that are not dates: "212.6 m … 2015 … 208.4 m … 2024") — or all of one's figures are the
 * other's — are one sentence, the one whose figures both state (the other may add one of its own), citing the other's
 * evidence too only when that evidence supports it (the verifier checks a sentence against all it cites together, so
 * that check is the writer's).
 */
function statedOnce(written: readonly Placed[], excerpts: ReadonlyMap<string, string>): Placed[] {
  const out = written.map((s) => ({ ...s, evidenceIds: [...s.evidenceIds] }));
  const gone = new Set<number>();
  const figures = out.map((s) => figuresOf(s.text));
  const supports = (ids: readonly string[], text: string) => {
    const premises = ids.flatMap((id) => excerpts.get(id) ?? []);
    return premises.length > 0 && entails(text, premises).verdict === 'supported';
  };
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      if (gone.has(i) || gone.has(j)) continue;
      const [a, b] = [out[i]!, out[j]!];
      if (a.source === b.source) continue;
      const [fa, fb] = [figures[i]!, figures[j]!];
      const aInB = fa.measures.length >= MIN_SHARED_FIGURES && figuresWithin(fa.all, fb.all);
      const bInA = fb.measures.length >= MIN_SHARED_FIGURES && figuresWithin(fb.all, fa.all);
      if (!aInB && !bInA) continue;
      // The sentence whose figures both state is kept (the earlier when they state the same ones).
      let [keep, drop] = aInB ? [i, j] : [j, i];
      // Cite the other too when its evidence supports the kept sentence; when they state the same figures and only the
      // other's evidence supports both, keep that one instead.
      if (!supports(out[drop]!.evidenceIds, out[keep]!.text) && aInB && bInA && supports(out[keep]!.evidenceIds, out[drop]!.text))
        [keep, drop] = [drop, keep];
      if (supports(out[drop]!.evidenceIds, out[keep]!.text))
        out[keep]!.evidenceIds = [...new Set([...out[keep]!.evidenceIds, ...out[drop]!.evidenceIds])];
      gone.add(drop);
    }
  }
  return out.filter((_, i) => !gone.has(i));
}

/**
 * The sentences before `index` in its excerpt that a pointing sentence needs: none when it points at nothing, the
 * sentences back to the one that names its subject, or null when that one is not there (the excerpt opens with the
 * pointer) or cannot be written (boilerplate, a fragment, a disputed position).
 */
function anchorsOf(sentences: readonly (string | null)[], index: number, usable: (s: string) => boolean): number[] | null {
  const chain: number[] = [];
  let at = index;
  while (pointsBack(sentences[at]!) !== null) {
    if (chain.length >= MAX_POINTER_CHAIN) return null;
    const before = sentences[at - 1];
    if (at === 0 || before === null || before === undefined || !usable(before)) return null;
    at--;
    chain.unshift(at);
  }
  return chain;
}

/**
 * The sentence a claim is written from: its excerpt's sentences (those of the excerpts it reads on from first, 0137), the
 * sentence's index among them, the sentences it points at, its overlap with the claim, and where each sentence is from.
 */
type WritingPick = {
  id: string;
  sentences: (string | null)[];
  index: number;
  anchors: number[];
  score: number;
  origin: (i: number) => { id: string; index: number };
};

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
    written.push({ text: sentence, evidenceIds, source: place.source, at: place.at, index, rank: written.length });
  };

  // The section's excerpt that ends right before another of the same source (nothing but white space between them).
  const endingAt = new Map<string, string>();
  const located = new Map<string, { sourceId: string; start: number }>();
  for (const e of input.evidence)
    if (e.sourceId !== undefined && e.start !== undefined) {
      endingAt.set(`${e.sourceId}:${e.start + e.excerpt.length}`, e.id);
      located.set(e.id, { sourceId: e.sourceId, start: e.start });
    }
  const adjacentBefore = (id: string): string | undefined => {
    const e = located.get(id);
    if (e === undefined) return undefined;
    for (let gap = 0; gap <= 4 && gap <= e.start; gap++) {
      const before = endingAt.get(`${e.sourceId}:${e.start - gap}`);
      if (before !== undefined && before !== id) return before;
    }
    return undefined;
  };
  for (const claim of input.claims) {
    const cited = [...new Set(claim.evidenceIds)].flatMap((id) => {
      const excerpt = excerpts.get(id);
      return excerpt === undefined ? [] : [{ id, excerpt }];
    });
    if (cited.length === 0) continue;
    const ids = cited.map((e) => e.id);
    const claimWords = statementStems(claim.statement);
    let best: WritingPick | null = null;
    // A sentence of an uncontested claim's excerpt can still state a disputed position: that goes to the
    // disagreements section, so the claim is written from another of its sentences or not at all.
    const usable = (s: string) => !isBoilerplate(s) && !isUnattributedQuote(s) && !statesContested(input, s);
    for (const { id, excerpt } of cited) {
      const own = sentencesOf(excerpt, voices.get(id));
      // An excerpt that opens with a pointing sentence reads on from the section's excerpt of its source that ends right
      // before it (two excerpts of one passage: "The operation of groupby is similar to the uniq filter in Unix." and
      // "It generates a break or new group …"), whose sentences are then the ones it points at (decision 0137).
      const prefix: { text: string | null; id: string; index: number }[] = [];
      const opening = () => (prefix.length > 0 ? prefix[0]!.text : own[0]);
      for (let at = id, k = 0; k < MAX_POINTER_CHAIN; k++) {
        const first = opening();
        if (first === null || first === undefined || pointsBack(first) === null) break;
        const before = adjacentBefore(at);
        const text = before === undefined ? undefined : excerpts.get(before);
        if (before === undefined || text === undefined) break;
        prefix.unshift(...sentencesOf(text, voices.get(before)).map((t, index) => ({ text: t, id: before, index })));
        at = before;
      }
      const sentences = [...prefix.map((p) => p.text), ...own];
      const origin = (i: number) => (i < prefix.length ? prefix[i]! : { id, index: i - prefix.length });
      own.forEach((s, ownIndex) => {
        const index = ownIndex + prefix.length;
        if (s === null || !usable(s)) return;
        // A sentence pointing back is written after the sentences it points at, from its excerpt; when the excerpt
        // opens with it, or those cannot be written, it is not a candidate (decision 0112).
        const anchors = anchorsOf(sentences, index, usable);
        if (anchors === null) return;
        const score = overlap(claimWords, s);
        if (best === null || score > best.score) best = { id, sentences, index, anchors, score, origin };
      });
    }
    if (best === null) continue;
    const chosen: WritingPick = best;
    const sentence = chosen.sentences[chosen.index]!;
    for (const a of chosen.anchors) {
      const from = chosen.origin(a);
      emit(chosen.sentences[a]!, [from.id], from.id, from.index);
    }
    // The sentences after it in its excerpt that point back at it are the claim's too (the curator excerpts a pointing
    // sentence with the one it points at): written after it, or not at all.
    const following: number[] = [];
    for (let k = chosen.index + 1; k < chosen.sentences.length && following.length < MAX_POINTER_CHAIN; k++) {
      const next = chosen.sentences[k];
      if (next === null || next === undefined || pointsBack(next) === null || !usable(next)) break;
      following.push(k);
    }
    // Near-duplicate evidence merged into this claim backs the same sentence: one sentence cites all of it.
    emit(sentence, ids, chosen.id, chosen.origin(chosen.index).index);
    for (const k of following) emit(chosen.sentences[k]!, [chosen.id], chosen.id, chosen.origin(k).index);
  }
  const terms = clauseTerms(input.section.title);
  return {
    paragraphs: paragraphsBySource(statedOnce(written, excerpts), (text) => answersClause(text, terms), input.section.title),
  };
}

import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { isBoilerplate } from '../offline/nlp/boilerplate';
import { readerSentence, withoutCitationMarkers } from '../offline/nlp/prose-faults';
import { isUnattributedQuote } from '../offline/nlp/quotation';
import { mmr } from '../offline/nlp/mmr';
import { PassageScorer, definedLabels, passageContexts } from '../offline/passage-relevance';
import { extractQuantities } from '../offline/nlp/quantities';
import { listMarkerLength, splitUnits, type Unit as TextUnit } from '../offline/nlp/sentences';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { contentStems, tokenize } from '../offline/nlp/tokens';
import { locateExcerpt } from './grounding';
import type { AgentRole, InputSplit, ReferenceCheck } from './role';
import { middleCut } from './split';
import { Id, Question, Unit, text } from './schemas';

export const EvidenceCuratorInput = z.strictObject({
  question: Question,
  questions: z.array(z.strictObject({ id: Id, text: text(2000) })),
  source: z.strictObject({ id: Id, title: z.string().max(1000), text: z.string() }),
  maxFragments: z.int().min(1).max(200),
});
export type EvidenceCuratorInput = z.infer<typeof EvidenceCuratorInput>;

export const CuratedFragment = z
  .strictObject({
    start: z.int().min(0),
    end: z.int().min(0),
    /** Exactly source.text.slice(start, end). */
    excerpt: text(20_000),
    statement: text(4000),
    questionId: Id.nullable(),
    confidence: Unit,
  })
  .refine((f) => f.end > f.start && f.end - f.start === f.excerpt.length, { message: 'excerpt length must equal end - start' });
export const EvidenceCuratorOutput = z.strictObject({ fragments: z.array(CuratedFragment) });
export type EvidenceCuratorOutput = z.infer<typeof EvidenceCuratorOutput>;

const MIN_WORDS = 5;
const SENTENCE_END = /[.!?:;…]["'”’»)\]]*$/;
const MIN_LIST_WORDS = 6;
const MAX_WORDS = 120;
/** A sentence must score at least this share of the best sentence's score. */
const RELATIVE_FLOOR = 0.2;
/** Sentences with figures are usually the facts a report needs. */
const FIGURE_BONUS = 1.15;
/** A sub-question scoring at least this share of a sentence's best score is the question it answers. */
const SUB_QUESTION_SHARE = 0.5;
// A sentence opening with one of these leans on the one before; the excerpt then takes both.
const ANAPHORA = /^(?:it|its|this|these|that|those|they|their|he|she|his|her|such|the latter|the former)\b/i;

interface Candidate {
  unit: TextUnit;
  /** Index of the unit in the document. */
  position: number;
  start: number;
}

function wordCount(s: string): number {
  return tokenize(s).length;
}

function eligible(u: TextUnit): boolean {
  if (u.kind === 'heading' || u.kind === 'table-row') return false;
  const words = wordCount(u.text);
  if (u.kind === 'list-item' && words < MIN_LIST_WORDS) return false;
  // A sentence ends like one: running heads, page footers and title lines of extracted PDFs do not.
  if (u.kind === 'sentence' && !SENTENCE_END.test(withoutCitationMarkers(u.text))) return false;
  // Boilerplate and fragments (a lead-in without its list, an item without its lead-in, program text, a cut sentence) are
  // never evidence (decision 0046); citation markers inside the sentence do not make it one.
  return (
    words >= MIN_WORDS &&
    words <= MAX_WORDS &&
    !isBoilerplate(u.text) &&
    !isUnattributedQuote(u.text) &&
    readerSentence(u.kind === 'list-item' ? u.text.slice(listMarkerLength(u.text)) : u.text) !== null
  );
}

function offline(input: EvidenceCuratorInput): EvidenceCuratorOutput {
  const source = input.source.text;
  const units = splitUnits(source);
  const candidates: Candidate[] = [];
  units.forEach((unit, position) => {
    if (!eligible(unit)) return;
    // A list item's excerpt starts after its bullet, so the excerpt reads as a statement.
    const start = unit.kind === 'list-item' ? unit.start + listMarkerLength(unit.text) : unit.start;
    candidates.push({ unit, position, start });
  });
  if (candidates.length === 0) return { fragments: [] };

  const contexts = passageContexts(source, units);
  const defined = definedLabels(units);
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
    if (ANAPHORA.test(c.unit.text) && previous?.kind === 'sentence' && !pickedPositions.has(c.position - 1) && c.unit.kind === 'sentence') {
      start = previous.start;
    }
    const excerpt = source.slice(start, c.unit.end);
    // The broad main question matches most sentences; credit the sub-question when it fits nearly as well.
    const questionId = b.questionScore >= b.score * SUB_QUESTION_SHARE ? b.questionId : null;
    return {
      start,
      end: c.unit.end,
      excerpt,
      statement: normalizeWhitespace(excerpt).slice(0, 4000),
      questionId,
      confidence: Math.round((0.3 + (0.7 * b.score) / top) * 1000) / 1000,
    };
  });
  fragments.sort((a, b) => a.start - b.start);
  return { fragments };
}

/**
 * Models are poor at character offsets: each excerpt is found in the source text and its offsets taken from there;
 * an excerpt that is not a verbatim passage is dropped, never stored.
 */
function ground(input: EvidenceCuratorInput, raw: unknown): { value: unknown; issues: string[] } {
  const fragments = (raw as { fragments?: unknown } | null)?.fragments;
  if (!Array.isArray(fragments)) return { value: raw, issues: [] };
  const kept: unknown[] = [];
  let dropped = 0;
  for (const f of fragments as Record<string, unknown>[]) {
    const at =
      typeof f?.['excerpt'] === 'string'
        ? locateExcerpt(input.source.text, f['excerpt'], typeof f['start'] === 'number' ? f['start'] : 0)
        : null;
    if (!at) {
      dropped++;
      continue;
    }
    kept.push({ ...f, start: at.start, end: at.end, excerpt: input.source.text.slice(at.start, at.end) });
  }
  const issues =
    dropped > 0 && kept.length === 0
      ? [`none of the ${dropped} excerpts is a verbatim passage of the source text: copy excerpts exactly`]
      : [];
  return { value: { ...(raw as object), fragments: kept }, issues };
}

function check(input: EvidenceCuratorInput, output: EvidenceCuratorOutput): ReferenceCheck<EvidenceCuratorOutput> {
  const known = new Set(input.questions.map((q) => q.id));
  const unknown = output.fragments.filter((f) => f.questionId !== null && !known.has(f.questionId));
  const issues =
    unknown.length > 0
      ? [`fragments name questions that were not given: ${[...new Set(unknown.map((f) => f.questionId))].slice(0, 5).join(', ')}`]
      : [];
  const fragments = output.fragments.map((f) => (f.questionId !== null && !known.has(f.questionId) ? { ...f, questionId: null } : f));
  const kept = fragments.slice(0, input.maxFragments);
  return { issues, cleaned: { fragments: kept }, dropped: unknown.length, trimmed: fragments.length - kept.length };
}

/**
 * A source too long for one request, in two parts cut at a paragraph (else a sentence) near its middle, each asked
 * for half the fragments; the second part's offsets are moved back into the whole text (decision 0040).
 */
function split(input: EvidenceCuratorInput): InputSplit<EvidenceCuratorInput, EvidenceCuratorOutput> | null {
  const text = input.source.text;
  const cut = middleCut(text);
  if (cut === null) return null;
  const part = (t: string): EvidenceCuratorInput => ({
    ...input,
    source: { ...input.source, text: t },
    maxFragments: Math.max(1, Math.ceil(input.maxFragments / 2)),
  });
  return {
    parts: [part(text.slice(0, cut)), part(text.slice(cut))],
    join: ([a, b]) => ({
      fragments: [...a.fragments, ...b.fragments.map((f) => ({ ...f, start: f.start + cut, end: f.end + cut }))].slice(
        0,
        input.maxFragments,
      ),
    }),
  };
}

export const evidenceCurator: AgentRole<EvidenceCuratorInput, EvidenceCuratorOutput, 'evidenceCurator'> = {
  ground,
  check,
  split,
  idle: (input) => (input.source.text.trim().length === 0 ? { fragments: [] } : null),
  name: 'evidenceCurator',
  temperature: 0,
  input: EvidenceCuratorInput,
  output: EvidenceCuratorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Evidence Curator',
      task: 'Select the passages of the source that answer the research questions (no more than the request allows), as exact excerpts with character offsets.',
      rules: [
        'An excerpt is one or a few whole sentences copied exactly from the source: excerpt must equal source.slice(start, end), offsets counted in UTF-16 code units from 0.',
        'statement restates the excerpt as one self-contained sentence, whitespace normalised, adding nothing the excerpt does not say.',
        'questionId is the id of the question the excerpt answers best, or null for the main question.',
        'Skip navigation, cookie banners, headings, bare lists and tables; prefer passages with concrete facts and figures.',
        'confidence in [0, 1] says how directly the excerpt answers its question.',
      ],
      output: EvidenceCuratorOutput,
      data: [
        ['question', input.question],
        ['questions', listWithIds(input.questions)],
        ['source title', input.source.title],
        ['source text', input.source.text],
      ],
      request: `At most ${input.maxFragments} passages.`,
    }),
  offline,
};

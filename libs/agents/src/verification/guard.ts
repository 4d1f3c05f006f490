import { comparable, extractQuantities, isTime, yearOf, type Quantity } from '../offline/nlp/quantities';
import { splitSentences } from '../offline/nlp/sentences';
import { negationCues, normalizeWhitespace, statementStems, stripCitations } from '../offline/nlp/statement-terms';
import { tokenize } from '../offline/nlp/tokens';

/*
 * The deterministic guard of verification (decision 0020): a sentence fails when a figure, date, unit, name or
 * negation it states is not in the passages it cites. It does not judge meaning (the verifier role does); it
 * catches, without a model and in microseconds, the fabricated statistic, the shifted year, the swapped unit, the
 * invented organisation and the dropped "not" that a judge reading for gist lets through. Pure: no I/O, no model.
 */

export type GuardProblemKind = 'number' | 'date' | 'unit' | 'entity' | 'negation';

export interface GuardProblem {
  kind: GuardProblemKind;
  /** What the sentence says that the passages do not, as written in the sentence. */
  text: string;
}

export interface GuardResult {
  ok: boolean;
  problems: GuardProblem[];
}

export interface GuardOptions {
  /**
   * Text the sentence may repeat without citing it (the research question, for framing sentences): names, figures
   * and dates in it do not count as facts the sentence states.
   */
  context?: readonly string[];
}

/** A figure restated in another unit matches within this relative difference (13.8 feet ≈ 4.2 m); same unit: exact. */
const CONVERSION_TOLERANCE = 0.01;
/** Evidence sentences nearly as close as the best match (this share of its overlap) may carry the polarity too. */
const POLARITY_NEIGHBOUR_SHARE = 0.8;

// Capitalised words that name no entity: calendar words (dates are checked as dates) and words of address.
const NOT_NAMES = new Set(
  `january february march april may june july august september october november december monday tuesday wednesday
  thursday friday saturday sunday i according however although because since while when where whereas after before
  during between the a an this that these those it its their there in on at by for from of to with as but and or`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** The first number of a figure as written ("38" in "38 million m³"). */
function writtenNumber(raw: string): string | null {
  const m = /\d[\d,]*(?:\.\d+)?/.exec(raw);
  return m ? m[0].replace(/,/g, '') : null;
}

function sameValue(q: Quantity, p: Quantity): boolean {
  if (!comparable(q, p)) return false;
  if (isTime(q)) {
    if (q.kind === 'year') return yearOf(q) === yearOf(p);
    // A month or a day the passage does not state is a date it does not support.
    if (p.kind === 'year') return false;
    const a = new Date(q.value);
    const b = new Date(p.value);
    if (a.getUTCFullYear() !== b.getUTCFullYear() || a.getUTCMonth() !== b.getUTCMonth()) return false;
    return q.unit === 'month' || a.getUTCDate() === b.getUTCDate();
  }
  if (q.sourceUnit === p.sourceUnit) return q.value === p.value;
  const scale = Math.max(Math.abs(q.value), Math.abs(p.value));
  return scale === 0 || Math.abs(q.value - p.value) / scale <= CONVERSION_TOLERANCE;
}

function figureProblem(q: Quantity, passages: readonly Quantity[]): GuardProblem | null {
  if (passages.some((p) => sameValue(q, p))) return null;
  const digits = writtenNumber(q.raw);
  if (isTime(q)) return { kind: 'date', text: q.raw };
  // A bare number ("12") is stated by "12 stations" and "12 metres" alike.
  if (q.kind === 'number' && q.unit === null && passages.some((p) => !isTime(p) && writtenNumber(p.raw) === digits)) return null;
  // The same number in another unit: the unit changed, not the figure.
  const sameDigits = passages.some((p) => !isTime(p) && writtenNumber(p.raw) === digits && !comparable(q, p));
  const sameDigitsOtherUnit = passages.some(
    (p) => !isTime(p) && writtenNumber(p.raw) === digits && comparable(q, p) && p.sourceUnit !== q.sourceUnit,
  );
  return { kind: sameDigits || sameDigitsOtherUnit ? 'unit' : 'number', text: q.raw };
}

/** Word runs that name something: capitalised words after the first word of a sentence, acronyms anywhere. */
export function namedEntities(text: string): string[][] {
  const names: string[][] = [];
  for (const sentence of splitSentences(text)) {
    const words = sentence.text.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    let run: string[] = [];
    let runStart = -1;
    const close = () => {
      // A lone capitalised first word is an ordinary word at the start of a sentence ("Rainfall fell"); a run of
      // two or more, or an acronym, names something even there ("Brennmoor Hydro said").
      if (run.length > 1 || (run.length === 1 && (runStart > 0 || /^\p{Lu}{2,}$/u.test(run[0]!)))) names.push(run);
      run = [];
    };
    words.forEach((word, i) => {
      const bare = word.replace(/['’]s$/u, '');
      const capitalised = /^\p{Lu}/u.test(bare) && !NOT_NAMES.has(bare.toLowerCase());
      if (capitalised) {
        if (run.length === 0) runStart = i;
        run.push(bare);
      } else close();
    });
    close();
  }
  return names;
}

function entityProblems(sentence: string, allowed: ReadonlySet<string>): GuardProblem[] {
  const problems: GuardProblem[] = [];
  for (const name of namedEntities(sentence)) {
    // Compared as tokens, so "Eskerford-based" is checked as "eskerford" and "based".
    const missing = tokenize(name.join(' ')).filter((w) => !allowed.has(w));
    if (missing.length > 0) problems.push({ kind: 'entity', text: name.join(' ') });
  }
  return problems;
}

function polarity(text: string): number {
  return negationCues(text).length % 2;
}

function share(words: ReadonlySet<string>, of: ReadonlySet<string>): number {
  if (words.size === 0) return 0;
  let n = 0;
  for (const w of words) if (of.has(w)) n++;
  return n / words.size;
}

/**
 * A negation the passages do not carry (or one they carry that the sentence dropped): the polarity of the sentence
 * against the evidence sentences that say most of what it says.
 */
function negationProblem(sentence: string, passages: readonly string[]): GuardProblem | null {
  const words = statementStems(sentence);
  const candidates = passages
    .flatMap((p) => splitSentences(p).map((s) => s.text))
    .map((text) => ({ text, share: share(words, statementStems(text)) }));
  const best = Math.max(0, ...candidates.map((c) => c.share));
  if (best === 0) return null;
  const near = candidates.filter((c) => c.share >= best * POLARITY_NEIGHBOUR_SHARE && c.share > 0);
  const mine = polarity(sentence);
  if (near.some((c) => polarity(c.text) === mine)) return null;
  const cues = negationCues(sentence);
  return { kind: 'negation', text: cues.length > 0 ? cues.join(', ') : 'the negation of the cited passage is missing' };
}

/**
 * Checks a sentence against the passages it cites: every figure (value and unit, after conversion), every date, every
 * name and the polarity must be found there. A sentence that cites nothing states no fact only if it carries none of
 * these beyond `options.context`.
 */
export function guardSentence(sentence: string, passages: readonly string[], options: GuardOptions = {}): GuardResult {
  const text = normalizeWhitespace(stripCitations(sentence));
  // Both sides normalised alike: a passage that breaks "42–50\nmillion m³" across a line states the same range.
  const cited = passages.map(normalizeWhitespace);
  const sources = [...cited, ...(options.context ?? []).map(normalizeWhitespace)];
  const figures = sources.flatMap((p) => extractQuantities(p));
  const problems: GuardProblem[] = [];
  for (const q of extractQuantities(text)) {
    const problem = figureProblem(q, figures);
    if (problem) problems.push(problem);
  }
  const vocabulary = new Set(sources.flatMap((p) => tokenize(p)));
  problems.push(...entityProblems(text, vocabulary));
  if (cited.length > 0) {
    const negation = negationProblem(text, cited);
    if (negation) problems.push(negation);
  }
  return { ok: problems.length === 0, problems };
}

/** One line for a verification note: what the guard found. */
export function describeGuardProblems(problems: readonly GuardProblem[]): string {
  return problems.map((p) => `${p.kind} not in the cited passages: ${p.text}`).join('; ');
}

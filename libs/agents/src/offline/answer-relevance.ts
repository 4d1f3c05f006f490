import { headingTerms, intentTerms } from './nlp/intent-terms';
import { compoundStems, variantStems } from './nlp/match-terms';
import { extractQuantities } from './nlp/quantities';
import { statementStems } from './nlp/statement-terms';
import { contentWords, stem } from './nlp/tokens';
import { QUESTION_FILLER } from './topics';

/*
 * How well a statement answers a (sub-)question, for the offline outline: the share of the question's terms it
 * covers, each weighted by how rare it is among the run's statements (every claim names "Lake Varen"; few name
 * "rainfall"), plus a bonus when the statement has what the kind of question asks for — a cause for "what caused",
 * a figure for "how large", a date for "when", a method for "how is it measured".
 */

const FILLER_STEMS = new Set([...QUESTION_FILLER].map(stem));
/** Share of the score given to a statement that has what the question's kind asks for. */
const ASPECT_BONUS = 0.35;
/** The kind bonus is given in full from this coverage of the question's terms, in proportion below it. */
const FULL_BONUS_COVERAGE = 0.5;

interface Aspect {
  asks: RegExp;
  answers: (statement: string) => boolean;
}

const hasFigure = (s: string) => extractQuantities(s).some((q) => q.kind !== 'year' && q.kind !== 'date');
const ASPECTS: readonly Aspect[] = [
  {
    asks: /\b(?:why|caus\w*|drove|driv\w*|reasons?|factors?|explain\w*|responsible|blame)\b/i,
    answers: (s) =>
      /\b(?:caus\w*|because|due to|driven|drove|attribut\w*|explain\w*|accounts? for|accounted for|blame\w*|responsib\w*|led to|contribut\w*|result(?:s|ed)? (?:of|from|in)|factors?)\b/i.test(
        s,
      ),
  },
  {
    asks: /\bhow (?:large|much|many|big|high|low|far|long|severe|fast)\b|\b(?:size|extent|amount)\b/i,
    answers: (s) => hasFigure(s) || /\b(?:fell|rose|dropped|lost|declined|increased|decreased|grew|shrank) by\b/i.test(s),
  },
  { asks: /^when\b|\bkey events\b/i, answers: (s) => extractQuantities(s).some((q) => q.kind === 'year' || q.kind === 'date') },
  {
    asks: /\bmeasured\b|\bmethods?\b|\bdifferent figures\b/i,
    answers: (s) => /\b(?:measur\w*|gauge|meter\w*|method\w*|estimat\w*|annual mean|averag\w*|compar\w*)\b/i.test(s),
  },
];

/** Where a statement stands in its source, when known: what it is scored with besides its own words. */
export interface Surroundings {
  /** The label above it and the sentence before it (passageContexts). */
  context?: string;
  /** The term line or heading whose first sentence it is: what it defines. */
  defines?: string;
}

export interface RelevanceModel {
  /** 0..1+: weighted coverage of the question's terms plus the aspect bonus. */
  score(question: string, statement: string, around?: Surroundings): number;
  /** Weighted coverage of the question's terms alone, 0..1. */
  coverage(question: string, statement: string, around?: Surroundings): number;
  /**
   * Coverage of the question's terms without its setting — the proper names it mentions in passing ("Lake Varen" in
   * "What caused the decline of Lake Varen's water level"): what makes a statement an answer is the rest.
   */
  topicalCoverage(question: string, statement: string, around?: Surroundings): number;
}

/** A question term found only in the statement's context (the label it stands under, the sentence before) counts this much. */
const CONTEXT_CREDIT = 0.5;
/**
 * A question word that states an intent ("safe"), answered by a word such answers are written in ("not secure"), counts
 * this much (decision 0149: at 0.5 python q07 lost a point and velora q05 did not get its back; at 0 python q15 lost all five).
 */
const INTENT_CREDIT = 1;
/** A question term in the label a statement defines ("--amend" above "Replace the tip of …") counts this much. */
const DEFINES_CREDIT = 1;
/**
 * A term the question writes as a name — an option, a call, a dotted or snake_case identifier, an all-capitals word
 * ("--amend", "lru_cache", "subprocess.run", "VACUUM") — names what is asked about: it weighs this much more than a
 * word of the question's phrasing ("fix", "content", "last").
 */
const NAMED_BOOST = 2;
const NAMED =
  /(?:^|[\s(`'"])(-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w]*(?:[._][\w]+)+(?:\(\))?|[A-Za-z_]\w*\(\)|[A-Za-z_]\w*=\w+|[A-Z][A-Z0-9_]{2,})(?=$|[\s),.;:?!`'"])/g;

/** The terms a text writes as names, as written (`subprocess.run`, `--amend`, `asyncio.gather()`), each once. */
export function namedTerms(text: string): string[] {
  return [...new Set([...text.matchAll(NAMED)].map((m) => m[1]!))];
}

/** Stems of the terms a question writes as names. */
export function namedStems(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(NAMED)) for (const t of statementStems(m[1]!)) out.add(t);
  return out;
}

// A capitalised word that does not open a sentence: a proper name ("Lake Varen", "Eskerford").
const PROPER_NAME = /(?<![.?!:]\s|^)\b[A-Z][a-z]+(?:'s|’s)?\b/g;

/** Stems of the proper names a question mentions: its setting. */
export function settingStems(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(PROPER_NAME)) for (const t of statementStems(m[0])) out.add(t);
  return out;
}

/** The words of a camelCase name ("gc.reflogExpire" → reflog, expire), as stems: a snake_case name's are split already. */
function camelParts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b[a-z]+(?:[A-Z][a-z]+)+\b/g)) for (const w of m[0].split(/(?=[A-Z])/)) out.push(...statementStems(w));
  return out;
}

/** A relevance model whose term weights come from `statements` (the run's claims). */
export function relevanceModel(statements: readonly string[]): RelevanceModel {
  const stemsOf = new Map<string, Set<string>>();
  const termsOf = (s: string) => {
    let t = stemsOf.get(s);
    if (!t) stemsOf.set(s, (t = new Set([...statementStems(s), ...camelParts(s), ...variantStems(contentWords(s)), ...compoundStems(s)])));
    return t;
  };
  const df = new Map<string, number>();
  for (const s of statements) for (const t of termsOf(s)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(1, statements.length);
  const weight = (t: string) => Math.log(1 + n / (df.get(t) ?? 0.5));
  // A question's weighted terms and the words that answer its intents, once per question: the outline scores every
  // claim against the same few questions.
  const questionOf = new Map<
    string,
    { terms: { t: string; w: number }[]; intents: Map<string, readonly string[]>; headings: Map<string, readonly string[]> }
  >();
  const questionTerms = (q: string) => {
    let entry = questionOf.get(q);
    if (!entry) {
      const names = namedStems(q);
      const terms = [...termsOf(q)]
        .filter((t) => !FILLER_STEMS.has(t))
        .map((t) => ({ t, w: weight(t) * (names.has(t) ? NAMED_BOOST : 1) }));
      questionOf.set(
        q,
        (entry = {
          terms,
          intents: intentTerms(
            terms.map(({ t }) => t),
            q,
          ),
          headings: headingTerms(
            terms.map(({ t }) => t),
            q,
          ),
        }),
      );
    }
    return entry;
  };

  const coverage = (question: string, statement: string, around: Surroundings = {}, counts: (t: string) => boolean = () => true) => {
    const { terms: all, intents, headings } = questionTerms(question);
    const kept = all.filter(({ t }) => counts(t));
    const terms = kept.length > 0 ? kept : all;
    const total = terms.reduce((sum, { w }) => sum + w, 0);
    if (total === 0) return 0;
    const own = termsOf(statement);
    const defined = around.defines ? termsOf(around.defines) : null;
    const context = around.context ? termsOf(around.context) : null;
    // A word stating the question's intent ("safe") is answered by the words such answers are written in ("secure",
    // "untrusted"), in the statement itself (decision 0149).
    const answersIntent = (t: string) => intents.get(t)?.some((a) => own.has(a)) ?? false;
    // A word asking what someone found is answered by a sentence under a "Results" heading as by one saying "found" (0169):
    // at the context's credit, a test report's results fell under the outline's floor in one run of two.
    const underHeading = (t: string) => context !== null && (headings.get(t)?.some((h) => context.has(h)) ?? false);
    const credit = (t: string) =>
      own.has(t)
        ? 1
        : answersIntent(t) || underHeading(t)
          ? INTENT_CREDIT
          : defined?.has(t)
            ? DEFINES_CREDIT
            : context?.has(t)
              ? CONTEXT_CREDIT
              : 0;
    return terms.reduce((sum, { t, w }) => sum + credit(t) * w, 0) / total;
  };
  return {
    coverage,
    topicalCoverage(question, statement, around) {
      const setting = settingStems(question);
      return coverage(question, statement, around, (t) => !setting.has(t));
    },
    score(question, statement, around) {
      // A figure answers "how large" only as far as the statement is about what is asked: a restocking release's
      // "180,000 fry released into Lake Varen" is no answer to how far the lake fell.
      const covered = coverage(question, statement, around);
      const answers = ASPECTS.some((a) => a.asks.test(question) && a.answers(statement));
      return covered + (answers ? ASPECT_BONUS * Math.min(1, covered / FULL_BONUS_COVERAGE) : 0);
    },
  };
}

/** Whether a statement has what the question's kind asks for (a cause, a figure, a date, a method); true when the question is of no such kind. */
export function answersKind(question: string, statement: string): boolean {
  const kinds = ASPECTS.filter((a) => a.asks.test(question));
  return kinds.length === 0 || kinds.some((a) => a.answers(statement));
}

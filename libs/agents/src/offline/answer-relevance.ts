import { extractQuantities } from './nlp/quantities';
import { statementStems } from './nlp/statement-terms';
import { stem } from './nlp/tokens';
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

export interface RelevanceModel {
  /** 0..1+: weighted coverage of the question's terms plus the aspect bonus. */
  score(question: string, statement: string): number;
  /** Weighted coverage of the question's terms alone, 0..1. */
  coverage(question: string, statement: string): number;
}

/** A relevance model whose term weights come from `statements` (the run's claims). */
export function relevanceModel(statements: readonly string[]): RelevanceModel {
  const stemsOf = new Map<string, Set<string>>();
  const termsOf = (s: string) => {
    let t = stemsOf.get(s);
    if (!t) stemsOf.set(s, (t = statementStems(s)));
    return t;
  };
  const df = new Map<string, number>();
  for (const s of statements) for (const t of termsOf(s)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(1, statements.length);
  const weight = (t: string) => Math.log(1 + n / (df.get(t) ?? 0.5));
  const questionTerms = (q: string) => [...termsOf(q)].filter((t) => !FILLER_STEMS.has(t));

  const coverage = (question: string, statement: string) => {
    const terms = questionTerms(question);
    const total = terms.reduce((sum, t) => sum + weight(t), 0);
    if (total === 0) return 0;
    const own = termsOf(statement);
    return terms.reduce((sum, t) => sum + (own.has(t) ? weight(t) : 0), 0) / total;
  };
  return {
    coverage,
    score(question, statement) {
      const bonus = ASPECTS.some((a) => a.asks.test(question) && a.answers(statement)) ? ASPECT_BONUS : 0;
      return coverage(question, statement) + bonus;
    },
  };
}

/** Whether a statement has what the question's kind asks for (a cause, a figure, a date, a method); true when the question is of no such kind. */
export function answersKind(question: string, statement: string): boolean {
  const kinds = ASPECTS.filter((a) => a.asks.test(question));
  return kinds.length === 0 || kinds.some((a) => a.answers(statement));
}

import { namedTerms } from '../answer-relevance';
import { mmr } from '../nlp/mmr';
import { extractQuantities, isTime } from '../nlp/quantities';
import { normalizeWhitespace } from '../nlp/statement-terms';
import { clip, topicPhrases } from '../topics';
import { QueryPlannerInput, QueryPlannerOutput } from '../../roles/query-planner';

const MAX_QUERY_CHARS = 200;

interface Candidate {
  questionId: string;
  query: string;
  relevance: number;
}

/** Key phrases of the question, anchored to the main topic and its years so a sub-question's query stays on subject. */
function keywordQuery(questionText: string, anchor: Anchor | undefined, scope: ScopeTerms): string {
  const phrases = topicPhrases(questionText, 3);
  const overlaps = (p: string, a: string) => p.includes(a) || a.includes(p);
  // Names always lead (a key phrase that is a piece of one, "run" of `subprocess.run`, goes); a key phrase anchor joins
  // only when no phrase of the question already holds it.
  const terms =
    anchor === undefined
      ? phrases
      : anchor.named
        ? [anchor.text, ...phrases.filter((p) => !anchor.text.includes(p))]
        : !phrases.some((p) => overlaps(p, anchor.text))
          ? [anchor.text, ...phrases]
          : phrases;
  const scoped = scope.phrases.filter((s) => !terms.some((t) => t.includes(s) || s.includes(t)));
  const years = [
    ...new Set([
      ...extractQuantities(questionText)
        .filter(isTime)
        .map((q) => q.raw),
      ...scope.years,
    ]),
  ];
  return clip([...terms, ...scoped, ...years].join(' '), MAX_QUERY_CHARS);
}

interface ScopeTerms {
  phrases: string[];
  years: string[];
}

const YEAR = /\b(?:1[5-9]|20)\d{2}\b/g;
/** Words that only frame a period: the years themselves carry it. */
const PERIOD_WORDS = /^(?:(?:only|the|years?|period|between|from|until|since|time|dates?)\s*)+$/;

/**
 * A narrowed scope steers the offline keyword queries: its years (every one, so a range keeps both ends)
 * and its main key phrase join each query.
 */
function scopeTerms(scope: readonly string[] | undefined): ScopeTerms {
  const text = (scope ?? []).join('. ');
  if (text.length === 0) return { phrases: [], years: [] };
  const years = [...new Set(text.match(YEAR) ?? [])];
  const phrases = topicPhrases(text.replace(YEAR, ' '), 1).filter((p) => !PERIOD_WORDS.test(p));
  return { phrases, years };
}

function naturalQuery(questionText: string): string {
  return clip(normalizeWhitespace(questionText).replace(/[?!.]+$/, ''), MAX_QUERY_CHARS);
}

/** Names the anchor keeps at most: a question naming many options ("--soft, --mixed and --hard") names its subject first. */
const MAX_ANCHOR_NAMES = 2;

/**
 * What every key-phrase query is anchored to: the dotted names and calls the question writes (`subprocess.run`,
 * `itertools.groupby`, `basicConfig()`: what a manual documents), else its main key phrase. Key phrases split a name into words and lose it
 * ("How do I run an external command with subprocess.run …" was searched as "external command command fails run", and
 * the subprocess page came third).
 */
interface Anchor {
  text: string;
  named: boolean;
}

function anchorOf(question: string): Anchor | undefined {
  // Dotted names and calls: an option or a word in capitals survives as a key phrase's word ("git commit amend").
  const names = namedTerms(question)
    .filter((n) => /\w\.\w|\(\)$/.test(n))
    .map((n) => n.replace(/\(\)$/, ''))
    .slice(0, MAX_ANCHOR_NAMES);
  if (names.length > 0) return { text: names.join(' '), named: true };
  const phrase = topicPhrases(question, 1)[0];
  return phrase === undefined ? undefined : { text: phrase, named: false };
}

export function queryPlannerOffline(input: QueryPlannerInput): QueryPlannerOutput {
  const anchor = anchorOf(input.question);
  const scope = scopeTerms(input.scope);
  const seen = new Set<string>();
  const keyword: Candidate[] = [];
  const natural: Candidate[] = [];
  input.questions.forEach((q) => {
    const relevance = (q.priority + 1) / 101;
    for (const [list, query, weight] of [
      [keyword, keywordQuery(q.text, anchor, scope), 1],
      [natural, naturalQuery(q.text), 0.9],
    ] as const) {
      const key = query.toLowerCase();
      if (query.length === 0 || seen.has(key)) continue;
      seen.add(key);
      list.push({ questionId: q.id, query, relevance: relevance * weight });
    }
  });
  // Key-phrase queries for every question first (diverse by MMR); natural-language variants fill any slots left.
  // MMR ids are positions in each list.
  const pick = (list: Candidate[], limit: number) =>
    mmr(
      list.map((c, k) => ({ id: String(k), relevance: c.relevance, text: c.query })),
      limit,
    ).map((k) => list[Number(k)]);
  const firstRound = pick(keyword, input.maxQueries);
  const secondRound = pick(natural, input.maxQueries - firstRound.length);
  return {
    queries: [...firstRound, ...secondRound].map((c, k) => ({
      questionId: c.questionId,
      query: c.query,
      provider: input.providers[(k + input.iteration) % input.providers.length],
    })),
  };
}

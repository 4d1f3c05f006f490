import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { mmr } from '../offline/nlp/mmr';
import { extractQuantities, isTime } from '../offline/nlp/quantities';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { clip, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
import { Id, Priority, Question, text } from './schemas';

export const QueryPlannerInput = z.strictObject({
  question: Question,
  questions: z.array(z.strictObject({ id: Id, text: text(2000), priority: Priority })).min(1),
  iteration: z.int().min(0),
  providers: z.array(text(40)).min(1),
  maxQueries: z.int().min(1).max(100),
  /** Narrowed scope (run interventions): every query must stay within it. */
  scope: z.array(text(1000)).max(20).optional(),
});
export type QueryPlannerInput = z.infer<typeof QueryPlannerInput>;

export const PlannedQuery = z.strictObject({ questionId: Id, query: text(1000), provider: text(40) });
export const QueryPlannerOutput = z.strictObject({ queries: z.array(PlannedQuery) });
export type QueryPlannerOutput = z.infer<typeof QueryPlannerOutput>;

const MAX_QUERY_CHARS = 200;

interface Candidate {
  questionId: string;
  query: string;
  relevance: number;
}

/** Key phrases of the question, anchored to the main topic and its years so a sub-question's query stays on subject. */
function keywordQuery(questionText: string, anchor: string | undefined, scope: ScopeTerms): string {
  const phrases = topicPhrases(questionText, 3);
  const terms = anchor !== undefined && !phrases.some((p) => p.includes(anchor) || anchor.includes(p)) ? [anchor, ...phrases] : phrases;
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

function offline(input: QueryPlannerInput): QueryPlannerOutput {
  const anchor = topicPhrases(input.question, 1)[0];
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

function check(input: QueryPlannerInput, output: QueryPlannerOutput): ReferenceCheck<QueryPlannerOutput> {
  const known = new Set(input.questions.map((q) => q.id));
  const providers = new Map(input.providers.map((p) => [p.toLowerCase(), p]));
  const issues = unknownIdIssues(
    output.queries.map((q) => q.questionId),
    known,
    'queries name question',
  );
  const unknownProviders = [...new Set(output.queries.map((q) => q.provider).filter((p) => !providers.has(p.toLowerCase())))];
  if (unknownProviders.length > 0)
    issues.push(`queries name providers that are not in the list: ${unknownProviders.slice(0, 5).join(', ')}`);
  if (output.queries.length === 0) issues.push(`no query was written for the ${input.questions.length} open questions`);
  const queries = output.queries.flatMap((q) => {
    const provider = providers.get(q.provider.toLowerCase());
    return known.has(q.questionId) && provider ? [{ ...q, provider }] : [];
  });
  const kept = queries.slice(0, input.maxQueries);
  return {
    issues,
    cleaned: kept.length > 0 ? { queries: kept } : null,
    dropped: output.queries.length - queries.length,
    trimmed: queries.length - kept.length,
  };
}

export const queryPlanner: AgentRole<QueryPlannerInput, QueryPlannerOutput, 'queryPlanner'> = {
  name: 'queryPlanner',
  temperature: 0.4,
  check,
  input: QueryPlannerInput,
  output: QueryPlannerOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Query Planner',
      task: 'Write search queries (no more than the request allows) that together find sources for the open questions; spread them over the providers the request names.',
      rules: [
        'Queries are short keyword queries (3–8 words) or one natural-language question; no two queries are near-duplicates.',
        'Keep years and other dates that the question mentions; prefer recent sources when the question is about the present.',
        'Higher-priority questions get queries first; every query names the questionId it serves and a provider from the list.',
        'Later research iterations look for what earlier ones missed.',
      ],
      callRules: [
        `This is research iteration ${input.iteration}.`,
        ...(input.scope?.length ? ['The research scope was narrowed (see "narrowed scope"): every query must stay within it.'] : []),
      ],
      output: QueryPlannerOutput,
      data: [
        ['question', input.question],
        ['open questions', listWithIds(input.questions.map((q) => ({ id: q.id, text: `(priority ${q.priority}) ${q.text}` })))],
        ...(input.scope?.length ? ([['narrowed scope', input.scope.join('\n')]] as const) : []),
      ],
      request: `Providers: ${input.providers.join(', ')}. At most ${input.maxQueries} queries.`,
    }),
  offline,
};

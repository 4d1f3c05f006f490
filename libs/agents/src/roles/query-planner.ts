import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
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

export const queryPlannerDefinition: RoleDefinition<QueryPlannerInput, QueryPlannerOutput, 'queryPlanner'> = {
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
};

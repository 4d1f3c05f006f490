import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { InputSplit, RoleDefinition, ReferenceCheck } from './role';
import { halves } from './split';
import { Id, Unit, distinctIds, text } from './schemas';

export const CoverageAssessorInput = z
  .strictObject({
    questions: z.array(z.strictObject({ id: Id, text: text(2000) })),
    claims: z.array(z.strictObject({ id: Id, statement: text(4000) })),
    /** Each question's score after the previous iteration (absent: 0). */
    previous: z.record(z.string(), Unit),
  })
  .superRefine(distinctIds('questions'));
export type CoverageAssessorInput = z.infer<typeof CoverageAssessorInput>;

export const QuestionCoverage = z.strictObject({ questionId: Id, score: Unit, informationGain: Unit });
export const CoverageAssessorOutput = z.strictObject({ coverage: z.array(QuestionCoverage), informationGain: Unit });
export type CoverageAssessorOutput = z.infer<typeof CoverageAssessorOutput>;

function check(input: CoverageAssessorInput, output: CoverageAssessorOutput): ReferenceCheck<CoverageAssessorOutput> {
  const known = new Set(input.questions.map((q) => q.id));
  const issues = unknownIdIssues(
    output.coverage.map((c) => c.questionId),
    known,
    'coverage names question',
  );
  const seen = new Set<string>();
  const coverage = output.coverage.filter((c) => {
    const ok = known.has(c.questionId) && !seen.has(c.questionId);
    seen.add(c.questionId);
    return ok;
  });
  if (coverage.length === 0 && input.questions.length > 0)
    issues.push(`no question was scored; score each of the ${input.questions.length}`);
  return { issues, cleaned: coverage.length > 0 ? { ...output, coverage } : null, dropped: output.coverage.length - coverage.length };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
const size = (texts: readonly string[]): number => texts.reduce((n, t) => n + t.length, 0);

/**
 * The input in two parts (decision 0115): the larger of the two lists halved. Half the questions with every claim:
 * each part scores its own questions, the answers are put together. Half the claims with every question: each part
 * scores every question on its claims, and a question's score is the better of the two (what the claims of one half
 * already show; it can only understate a question whose answer is spread over both). Either way a question's gain is
 * its score over its previous one, the overall gain their mean, and a question neither part scored stays unscored.
 */
function split(input: CoverageAssessorInput): InputSplit<CoverageAssessorInput, CoverageAssessorOutput> | null {
  const questionText = size(input.questions.map((q) => q.text));
  const claimText = size(input.claims.map((c) => c.statement));
  const byQuestions = input.questions.length >= 2 && (questionText >= claimText || input.claims.length < 2);
  const merged = (coverage: CoverageAssessorOutput['coverage']): CoverageAssessorOutput => {
    const best = new Map<string, number>();
    for (const c of coverage) best.set(c.questionId, Math.max(best.get(c.questionId) ?? 0, c.score));
    // In the input's order, each question once.
    const out = input.questions.flatMap((q) => {
      const score = best.get(q.id);
      if (score === undefined) return [];
      return [{ questionId: q.id, score, informationGain: round(Math.max(0, score - (input.previous[q.id] ?? 0))) }];
    });
    const gain = out.length === 0 ? 0 : out.reduce((sum, c) => sum + c.informationGain, 0) / out.length;
    return { coverage: out, informationGain: round(gain) };
  };
  if (byQuestions) {
    const parts = halves(input.questions);
    if (!parts) return null;
    const part = (questions: CoverageAssessorInput['questions']): CoverageAssessorInput => ({
      ...input,
      questions,
      previous: Object.fromEntries(
        questions.flatMap((q) => {
          const score = input.previous[q.id];
          return score === undefined ? [] : [[q.id, score] as const];
        }),
      ),
    });
    return { parts: [part(parts[0]), part(parts[1])], join: ([a, b]) => merged([...a.coverage, ...b.coverage]) };
  }
  const parts = halves(input.claims);
  if (!parts) return null;
  return {
    parts: [
      { ...input, claims: parts[0] },
      { ...input, claims: parts[1] },
    ],
    join: ([a, b]) => merged([...a.coverage, ...b.coverage]),
  };
}

export const coverageAssessorDefinition: RoleDefinition<CoverageAssessorInput, CoverageAssessorOutput, 'coverageAssessor'> = {
  name: 'coverageAssessor',
  temperature: 0,
  check,
  split,
  // Not assessed: no question is scored, so this iteration adds no measured gain.
  skipped: () => ({ coverage: [], informationGain: 0 }),
  idle: (input) => (input.questions.length === 0 ? { coverage: [], informationGain: 0 } : null),
  input: CoverageAssessorInput,
  output: CoverageAssessorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Coverage Assessor',
      task: 'Score how well the claims gathered so far answer each question, and how much this iteration added.',
      rules: [
        'score in [0, 1]: 0 when no claim bears on the question, 1 when several independent claims answer it fully.',
        'informationGain per question is max(0, score − previous score); the overall informationGain is their mean.',
        'Judge only from the claims given; do not use outside knowledge.',
      ],
      output: CoverageAssessorOutput,
      data: [
        ['questions', listWithIds(input.questions)],
        ['claims', listWithIds(input.claims.map((c) => ({ id: c.id, text: c.statement })))],
        ['previous scores', JSON.stringify(input.previous)],
      ],
    }),
};

import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
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

export const coverageAssessorDefinition: RoleDefinition<CoverageAssessorInput, CoverageAssessorOutput, 'coverageAssessor'> = {
  name: 'coverageAssessor',
  temperature: 0,
  check,
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

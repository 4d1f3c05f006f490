import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { answersKind, relevanceModel, type RelevanceModel } from '../offline/answer-relevance';
import { statementStems } from '../offline/nlp/statement-terms';
import { stem } from '../offline/nlp/tokens';
import { QUESTION_FILLER } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
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

/** A claim supports a question when it has at least this share of the question's content words. */
const SUPPORT_SHARE = 0.5;
/** This many supporting claims make a question fully corroborated. */
const FULL_SUPPORT = 3;
const FILLER_STEMS = new Set([...QUESTION_FILLER].map(stem));

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * score = 0.6 × (best share of the question's content words found in one claim, weighted by rarity among the claims)
 *       + 0.4 × (supporting claims / 3, capped at 1): a question is covered when some claim answers it
 * and several claims corroborate that.
 */
function questionScore(question: string, claims: readonly string[], model: RelevanceModel): number {
  const words = [...statementStems(question)].filter((w) => !FILLER_STEMS.has(w));
  if (words.length === 0) return 0;
  // Words every claim shares (the subject's name) say little; a claim that has the question's words but not what it
  // asks for ("what caused…" with no cause) answers half of it.
  const shares = claims.map((c) => model.coverage(question, c) * (answersKind(question, c) ? 1 : 0.5));
  const best = Math.max(0, ...shares);
  const supporting = shares.filter((s) => s >= SUPPORT_SHARE).length;
  return round(0.6 * best + 0.4 * Math.min(1, supporting / FULL_SUPPORT));
}

function offline(input: CoverageAssessorInput): CoverageAssessorOutput {
  const claims = input.claims.map((c) => c.statement);
  const model = relevanceModel(claims);
  const coverage = input.questions.map((q) => {
    const score = questionScore(q.text, claims, model);
    return { questionId: q.id, score, informationGain: round(Math.max(0, score - (input.previous[q.id] ?? 0))) };
  });
  const gain = coverage.length === 0 ? 0 : coverage.reduce((sum, c) => sum + c.informationGain, 0) / coverage.length;
  return { coverage, informationGain: round(gain) };
}

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

export const coverageAssessor: AgentRole<CoverageAssessorInput, CoverageAssessorOutput, 'coverageAssessor'> = {
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
  offline,
};

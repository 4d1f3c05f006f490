import { answersKind, relevanceModel, type RelevanceModel } from '../answer-relevance';
import { statementStems } from '../nlp/statement-terms';
import { stem } from '../nlp/tokens';
import { QUESTION_FILLER } from '../topics';
import { CoverageAssessorInput, CoverageAssessorOutput } from '../../roles/coverage-assessor';

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

export function coverageAssessorOffline(input: CoverageAssessorInput): CoverageAssessorOutput {
  const claims = input.claims.map((c) => c.statement);
  const model = relevanceModel(claims);
  const coverage = input.questions.map((q) => {
    const score = questionScore(q.text, claims, model);
    return { questionId: q.id, score, informationGain: round(Math.max(0, score - (input.previous[q.id] ?? 0))) };
  });
  const gain = coverage.length === 0 ? 0 : coverage.reduce((sum, c) => sum + c.informationGain, 0) / coverage.length;
  return { coverage, informationGain: round(gain) };
}

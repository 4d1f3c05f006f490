import { z } from 'zod';

/*
 * `eval.json`: what one eval run measured, per question and overall (docs/decisions/0021). A schema, not only a type,
 * because `dossier eval compare` reads two of these files from disk.
 */

const share = z.number().min(0).max(1);
const count = z.int().min(0);

export const KeyPointScore = z.strictObject({
  fact: z.string(),
  found: z.boolean(),
  /** The report sentence that stated it (first match). */
  sentence: z.string().nullable(),
});
export const TrapScore = z.strictObject({ statement: z.string(), hit: z.boolean(), sentence: z.string().nullable() });
export const SourceScore = z.strictObject({ path: z.string(), cited: z.boolean() });

/** The report lint of one report (docs/decisions/0045): sentences, defects, per kind, and a few examples of each. */
export const LintScore = z.strictObject({
  sentences: count,
  defects: count,
  byKind: z.record(z.string(), count),
  examples: z.array(z.strictObject({ kind: z.string(), detail: z.string(), section: z.string(), text: z.string() })),
});
export type LintScore = z.infer<typeof LintScore>;

export const QuestionScore = z.strictObject({
  id: z.string(),
  question: z.string(),
  runId: z.string().nullable(),
  /** Why the question has no report (the run failed); its recall counts as 0. */
  error: z.string().nullable(),
  keyPoints: z.array(KeyPointScore),
  keyPointRecall: share,
  traps: z.array(TrapScore),
  trapHits: count,
  sources: z.array(SourceScore),
  sourceRecall: share,
  /** Sentences citing evidence, and how many of them each check supports. */
  citedSentences: count,
  guardSupported: count,
  /** guardSupported / citedSentences; null with no cited sentence. */
  citationSupport: share.nullable(),
  judgeSupported: count.nullable(),
  judgeSupport: share.nullable(),
  /** Cited excerpts, and how many equal the slice of their source's text they claim to be. */
  excerpts: count,
  verbatimExcerpts: count.nullable(),
  excerptVerbatimRate: share.nullable(),
  words: count,
  wallMs: count,
  llmCalls: count,
  tokensIn: count,
  tokensOut: count,
  /** The report lint; null for a failed question (and in eval reports written before the lint). */
  lint: LintScore.nullable().default(null),
});
export type QuestionScore = z.infer<typeof QuestionScore>;

export const OverallScore = z.strictObject({
  questions: count,
  failed: count,
  /** Mean over questions (each question weighs the same, whatever its number of key points). */
  keyPointRecall: share,
  keyPointsFound: count,
  keyPoints: count,
  trapHits: count,
  questionsWithTrapHits: count,
  sourceRecall: share,
  citedSentences: count,
  citationSupport: share.nullable(),
  judgeSupport: share.nullable(),
  excerptVerbatimRate: share.nullable(),
  wordsPerQuestion: z.number().min(0),
  wallMs: count,
  llmCalls: count,
  tokensIn: count,
  tokensOut: count,
  /** Requests and tokens of the judge itself (not part of the runs'). */
  judgeCalls: count,
  judgeTokensIn: count,
  judgeTokensOut: count,
  /** Report lint defects and sentences over every report, and defects per 100 sentences (null before the lint). */
  lintDefects: count.nullable().default(null),
  lintSentences: count.nullable().default(null),
  lintPer100: z.number().min(0).nullable().default(null),
  lintByKind: z.record(z.string(), count).nullable().default(null),
});
export type OverallScore = z.infer<typeof OverallScore>;

export const EvalReport = z.strictObject({
  set: z.strictObject({ name: z.string(), title: z.string() }),
  engine: z.enum(['offline', 'openai']),
  collection: z.string(),
  /** The model that judged citation support (the verifier role's, pinned for the whole eval); null: guard only. */
  judgeModel: z.string().nullable(),
  startedAt: z.string(),
  questions: z.array(QuestionScore),
  overall: OverallScore,
});
export type EvalReport = z.infer<typeof EvalReport>;

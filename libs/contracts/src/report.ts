import { z } from 'zod';
import { BudgetKind } from './run-options';
import { ContradictionKind, EpistemicStatus, SourceOrigin, AuthorityClass } from './entities/research';

/**
 * `report.json`: the shape other tools read (issue 3). Ids are the short, stable ids used in the text
 * (`E12` for evidence, `C3` for claims, `S2` for sources), not database ids.
 */
export const ReportSentence = z.strictObject({
  text: z.string().min(1),
  evidenceIds: z.array(z.string()),
  /**
   * Program text the sentence introduces ("… are read with this command:"), verbatim from its cited excerpt: shown as
   * a code block under the sentence, never as prose (decision 0102). Absent for every other sentence.
   */
  code: z.string().min(1).max(20_000).optional(),
  /**
   * The term its cited passage describes in its source — an option, a sub-command, a function, a setting ("-u,
   * --include-untracked", "apply [--index] [-q|--quiet] [<stash>]") — shown before the sentence, which does not name it
   * (decision 0153). Absent when the passage stands under no term.
   */
  term: z.string().min(1).max(300).optional(),
});
export const ReportParagraph = z.strictObject({ sentences: z.array(ReportSentence) });
export const ReportSectionKind = z.enum(['body', 'framing', 'contradictions', 'method']);
export const ReportSection = z.strictObject({
  id: z.string(),
  title: z.string().min(1),
  kind: ReportSectionKind,
  paragraphs: z.array(ReportParagraph),
});

export const ReportEvidence = z.strictObject({
  sourceId: z.string(),
  excerpt: z.string().min(1),
  start: z.int().min(0),
  end: z.int().min(0),
  claimIds: z.array(z.string()),
  /** The term the passage stands under in its source (decision 0153): what it describes. Absent when under none. */
  term: z.string().min(1).max(300).optional(),
});
export const ReportClaim = z.strictObject({ text: z.string(), status: EpistemicStatus, evidenceIds: z.array(z.string()) });
export const ReportContradiction = z.strictObject({
  claimIds: z.tuple([z.string(), z.string()]),
  kind: ContradictionKind,
  note: z.string(),
});
export const ReportSource = z.strictObject({
  number: z.int().min(1),
  url: z.string(),
  title: z.string(),
  contentHash: z.string(),
  fetchedAt: z.string(),
  origin: SourceOrigin.optional(),
  authority: AuthorityClass.optional(),
});
/** Model use of one role, model or engine, summed from llm_calls (every request is one call). */
export const LlmUsage = z.strictObject({
  calls: z.int().min(0),
  tokensIn: z.int().min(0),
  tokensOut: z.int().min(0),
  costUsd: z.number().min(0),
});
export type LlmUsage = z.infer<typeof LlmUsage>;

const count = z.int().min(0);

/**
 * What verification did (decision 0020): checks of report sentences by the guard and the judge, repairs, removals. Three
 * figures say it in brief, the same in every format, the web app and the runs API (decision 0086): `checked` (checks
 * made), `sentences` (sentences in the report) and `supported` (of those, the ones supported by the passages they cite).
 */
export const VerificationMetrics = z.strictObject({
  /**
   * Checks made: every check of every round — body, introduction, conclusion and disagreements; a sentence checked
   * again after a repair counts again, one carried over unchanged does not.
   */
  checked: count,
  /** Sentences in the report outside its method section (the same figure as `verifiedSentences`). Absent in older reports. */
  sentences: count.optional(),
  /**
   * Sentences in the report that cite passages and whose last check found them supported by those passages; the others
   * frame the report and cite nothing (the guard checked them against the question and the report's outline). Absent in
   * older reports.
   */
  supported: count.optional(),
  /** Repair rounds of the body. Absent in older reports. */
  rounds: count.optional(),
  failedByGuard: count,
  failedByJudge: count,
  repaired: count,
  removed: count,
  /**
   * Who judged each check (decision 0040): the verifier model, the offline engine in its place (an offline run, a spent
   * budget, a model answer that stayed unusable), or the guard alone (framing sentences that cite nothing). Absent in
   * reports written before these were counted.
   */
  judgedByModel: count.optional(),
  judgedOffline: count.optional(),
  guardOnly: count.optional(),
});
export type VerificationMetrics = z.infer<typeof VerificationMetrics>;

/** How the model's answers were handled (decision 0019), summed from llm_calls notes. */
export const ModelOutputMetrics = z.strictObject({
  /** Answers mended locally (fences, prose, truncated JSON, enum case, extra keys, null lists). */
  locallyRepaired: count,
  /** Repair requests sent (the second and last try of a role call). */
  repairRequests: count,
  /** Values trimmed or clamped to soft limits. */
  trimmed: count,
  /** Ids still wrong after the repair request, dropped or reset. */
  droppedIds: count,
  /** Optional role calls skipped because the answer stayed unusable, by role. */
  skipped: z.record(z.string(), count),
  /** Required role calls played by the offline engine because the answer stayed unusable, by role. */
  offline: z.record(z.string(), count),
});
export type ModelOutputMetrics = z.infer<typeof ModelOutputMetrics>;

/** Role calls the offline engine played (no request, no tokens): in total and by role (decision 0040). */
export const OfflinePlays = z.strictObject({ total: count, byRole: z.record(z.string(), count) });

/** Counts of the text gate's kinds (decision 0041). */
export const HygieneFigures = z.strictObject({ leaked: count, duplicates: count, fragments: count });

/**
 * Text hygiene of a model run (decision 0041): what the report still holds of model text that leaked prompt markers,
 * ids, instructions or JSON, of repeated sentences and of fragments (0 after the gate), and what the gate removed.
 */
export const HygieneMetrics = HygieneFigures.extend({ dropped: HygieneFigures });
export type HygieneMetrics = z.infer<typeof HygieneMetrics>;

export const ReportMetrics = z.strictObject({
  iterations: z.int().min(0),
  /** The same figure as `modelRequests` (kept for readers of older reports, where it also counted offline plays). */
  llmCalls: z.int().min(0),
  /**
   * Requests the model endpoint received: every attempt, retries and repair requests included (decision 0040). The
   * tokens and cost beside it are the provider's figures for those requests only.
   */
  modelRequests: z.int().min(0).optional(),
  offlinePlays: OfflinePlays.optional(),
  tokensIn: z.int().min(0),
  tokensOut: z.int().min(0),
  costUsd: z.number().min(0),
  wallMs: z.int().min(0),
  searches: z.int().min(0),
  sourcesFetched: z.int().min(0),
  /** The budget that ended research, if one did (tokens, cost, wall_time, iterations). */
  budgetExhausted: BudgetKind.nullable().optional(),
  /** Sentences of the report outside its method section: every one passed verification (decision 0036). */
  verifiedSentences: z.int().min(0).optional(),
  /** Model tokens (prompt + completion, model engines only) per verified sentence; absent for offline runs (decision 0036). */
  tokensPerVerifiedSentence: z.number().min(0).optional(),
  /** Prompt and completion tokens of each role, summed from llm_calls (every request is one call). */
  byRole: z.record(z.string(), LlmUsage).optional(),
  byModel: z.record(z.string(), LlmUsage).optional(),
  byEngine: z.record(z.string(), LlmUsage).optional(),
  verification: VerificationMetrics.optional(),
  modelOutput: ModelOutputMetrics.optional(),
  hygiene: HygieneMetrics.optional(),
  /**
   * The embeddings endpoint failed mid-run and the run went on with the local embedder (decision 0043): which embedder
   * failed, which took over, in which step and why. Absent when the configured embedder served the whole run.
   */
  embeddingsFallback: z
    .strictObject({ from: z.string().max(200), to: z.string().max(200), stepKey: z.string().max(200), reason: z.string().max(500) })
    .optional(),
});

/**
 * One analyst's interview (issue 14): each turn's question and the expert's answer, every sentence citing evidence.
 * `sectionId` is the report section written from it (null when it yielded no verified sentence).
 */
export const ReportInterview = z.strictObject({
  analyst: z.strictObject({ name: z.string().min(1), role: z.string(), focus: z.string() }),
  sectionId: z.string().nullable(),
  turns: z.array(z.strictObject({ question: z.string().min(1), answer: z.array(ReportSentence) })),
});
export type ReportInterview = z.infer<typeof ReportInterview>;

export const ReportJson = z
  .strictObject({
    runId: z.string(),
    /** An imported run's report: the id of the run it was exported from (the header names both, issue 28). */
    importedFrom: z.string().optional(),
    question: z.string(),
    status: z.string(),
    engine: z.string(),
    createdAt: z.string(),
    sections: z.array(ReportSection),
    evidence: z.record(z.string(), ReportEvidence),
    claims: z.record(z.string(), ReportClaim),
    contradictions: z.array(ReportContradiction),
    sources: z.record(z.string(), ReportSource),
    metrics: ReportMetrics,
    /** Interviews and hybrid modes only. */
    interviews: z.array(ReportInterview).optional(),
  })
  .superRefine((report, ctx) => {
    // Every sentence of a body or contradictions section cites at least one known evidence id, except the closing
    // sentence of a disagreement, which may say in the report's own words what differs between the sides (0096).
    report.sections.forEach((section, si) => {
      section.paragraphs.forEach((p, pi) =>
        p.sentences.forEach((s, ti) => {
          const path = ['sections', si, 'paragraphs', pi, 'sentences', ti];
          const closing = section.kind === 'contradictions' && ti === p.sentences.length - 1 && ti >= 2;
          if ((section.kind === 'body' || (section.kind === 'contradictions' && !closing)) && s.evidenceIds.length === 0) {
            ctx.addIssue({ code: 'custom', path, message: `uncited sentence in ${section.kind} section "${section.title}"` });
          }
          for (const id of s.evidenceIds) {
            if (!report.evidence[id]) ctx.addIssue({ code: 'custom', path, message: `unknown evidence id ${id}` });
          }
        }),
      );
    });
    report.interviews?.forEach((interview, ii) =>
      interview.turns.forEach((turn, ti) =>
        turn.answer.forEach((s, si) => {
          const path = ['interviews', ii, 'turns', ti, 'answer', si];
          if (s.evidenceIds.length === 0) ctx.addIssue({ code: 'custom', path, message: 'uncited sentence in an interview answer' });
          for (const id of s.evidenceIds)
            if (!report.evidence[id]) ctx.addIssue({ code: 'custom', path, message: `unknown evidence id ${id}` });
        }),
      ),
    );
    for (const [id, e] of Object.entries(report.evidence)) {
      if (!report.sources[e.sourceId]) ctx.addIssue({ code: 'custom', path: ['evidence', id], message: `unknown source ${e.sourceId}` });
    }
  });
export type ReportJson = z.infer<typeof ReportJson>;
export type ReportSection = z.infer<typeof ReportSection>;

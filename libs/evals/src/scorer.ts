import { countWords, guardSentence, type SentenceToVerify } from '@dossier/agents';
import type { ReportJson } from '@dossier/contracts';
import type { EvalQuestion, EvalSet } from './eval-set';
import type { EvalReport, OverallScore, QuestionScore } from './eval-report-schema';
import type { Judge } from './judge';
import { firstMatch, normalize } from './matching';
import { lintReport, LINT_KINDS } from './report-lint';

/*
 * Scores one report against one eval question (docs/decisions/0021). Which sections count:
 * - key points may be stated anywhere an answer is given: body, framing (introduction, conclusion) and the
 *   disagreements section;
 * - traps count in the body and the framing only: the disagreements section exists to state both sides of a dispute,
 *   attributed to their sources, so a contested claim appearing there is the report doing its job;
 * - the method section (engine, figures about the run) is never read.
 */

type Kind = ReportJson['sections'][number]['kind'];

interface Sentence {
  text: string;
  normalized: string;
  evidenceIds: string[];
  kind: Kind;
}

/**
 * The report's sentences outside its method section, each matched as the reader reads it: after the term it is shown
 * under ("-u, --include-untracked: When used with …", decision 0153), which says what the sentence is about.
 */
function sentencesOf(report: ReportJson): Sentence[] {
  return report.sections
    .filter((s) => s.kind !== 'method')
    .flatMap((s) =>
      s.paragraphs.flatMap((p) =>
        p.sentences.map((t) => ({
          text: t.text,
          normalized: normalize(t.term ? `${t.term}: ${t.text}` : t.text),
          evidenceIds: t.evidenceIds,
          kind: s.kind,
        })),
      ),
    );
}

/** The corpus path of a cited source's URL (`corpus://collection/a/b.md` → `a/b.md`), or the URL itself. */
function citedPath(url: string): string {
  const m = /^corpus:\/\/[^/]+\/(.+)$/.exec(url);
  const raw = m ? m[1]! : url;
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return raw;
  }
}

/** A cited document is the expected source when its path ends with the corpus-relative path (at a `/`). */
function sameDocument(cited: string, expected: string): boolean {
  return cited === expected || cited.endsWith(`/${expected}`);
}

/** The text of a cited source, to check its excerpts against; null when it cannot be read. */
export type SourceTextReader = (source: ReportJson['sources'][string]) => Promise<string | null>;

export interface ScoreOptions {
  judge?: Judge | null;
  sourceText?: SourceTextReader;
  /** Wall time of the question's run as the eval measured it (default: the report's own wallMs). */
  wallMs?: number;
}

/**
 * Model requests and tokens from the report's llm_calls sums. The offline engine records its role plays in llm_calls
 * too (no request, estimated tokens); they are not model use, so they are left out when the per-engine split is known.
 */
function modelUse(metrics: ReportJson['metrics']): { llmCalls: number; tokensIn: number; tokensOut: number } {
  if (!metrics.byEngine) return { llmCalls: metrics.llmCalls, tokensIn: metrics.tokensIn, tokensOut: metrics.tokensOut };
  const used = Object.entries(metrics.byEngine).filter(([engine]) => engine !== 'offline');
  return {
    llmCalls: used.reduce((n, [, u]) => n + u.calls, 0),
    tokensIn: used.reduce((n, [, u]) => n + u.tokensIn, 0),
    tokensOut: used.reduce((n, [, u]) => n + u.tokensOut, 0),
  };
}

/** Every figure of one question, from its report. */
export async function scoreQuestion(question: EvalQuestion, report: ReportJson, options: ScoreOptions = {}): Promise<QuestionScore> {
  const sentences = sentencesOf(report);
  const answering = sentences.map((s) => s.normalized);
  const assertive = sentences.filter((s) => s.kind === 'body' || s.kind === 'framing');

  const keyPoints = question.keyPoints.map((k) => {
    const m = firstMatch(k.phrasings, answering);
    return { fact: k.fact, found: m !== null, sentence: m ? sentences[m.index]!.text : null };
  });
  const traps = question.traps.map((t) => {
    const m = firstMatch(
      t.phrasings,
      assertive.map((s) => s.normalized),
    );
    return { statement: t.statement, hit: m !== null, sentence: m ? assertive[m.index]!.text : null };
  });

  const cited = sentences.filter((s) => s.evidenceIds.length > 0);
  const citedEvidenceIds = [...new Set(cited.flatMap((s) => s.evidenceIds))].filter((id) => report.evidence[id]);
  const citedPaths = [
    ...new Set(citedEvidenceIds.map((id) => report.sources[report.evidence[id]!.sourceId]?.url).filter((u) => u !== undefined)),
  ].map(citedPath);
  const sources = question.sources.map((p) => ({ path: p, cited: citedPaths.some((c) => sameDocument(c, p)) }));

  // Citation support: the deterministic guard of verification (decision 0020) on every cited sentence, and the judge.
  const toVerify: SentenceToVerify[] = cited.map((s) => ({
    text: s.text,
    evidenceIds: s.evidenceIds,
    evidence: s.evidenceIds.flatMap((id) => (report.evidence[id] ? [{ id, excerpt: report.evidence[id].excerpt }] : [])),
  }));
  const guardSupported = toVerify.filter(
    (s) =>
      guardSentence(
        s.text,
        s.evidence.map((e) => e.excerpt),
      ).ok,
  ).length;
  const judged = options.judge && toVerify.length > 0 ? await options.judge.judge(toVerify, report.runId) : null;
  const judgeSupported = options.judge ? (judged?.filter(Boolean).length ?? 0) : null;

  // Excerpt-verbatim rate: each cited excerpt equals the slice of its source's text at its offsets.
  let verbatim: number | null = null;
  if (options.sourceText) {
    verbatim = 0;
    const texts = new Map<string, string | null>();
    for (const id of citedEvidenceIds) {
      const e = report.evidence[id]!;
      const source = report.sources[e.sourceId];
      if (!source) continue;
      if (!texts.has(e.sourceId)) texts.set(e.sourceId, await options.sourceText(source));
      if (texts.get(e.sourceId)?.slice(e.start, e.end) === e.excerpt) verbatim++;
    }
  }

  const ratio = (n: number, d: number): number => (d === 0 ? 0 : n / d);
  const lint = lintReport(report);
  return {
    id: question.id,
    question: question.question,
    runId: report.runId,
    error: null,
    keyPoints,
    keyPointRecall: ratio(keyPoints.filter((k) => k.found).length, keyPoints.length),
    traps,
    trapHits: traps.filter((t) => t.hit).length,
    sources,
    sourceRecall: ratio(sources.filter((s) => s.cited).length, sources.length),
    citedSentences: toVerify.length,
    guardSupported,
    citationSupport: toVerify.length === 0 ? null : guardSupported / toVerify.length,
    judgeSupported,
    judgeSupport: judgeSupported === null || toVerify.length === 0 ? null : judgeSupported / toVerify.length,
    excerpts: citedEvidenceIds.length,
    verbatimExcerpts: verbatim,
    excerptVerbatimRate: verbatim === null || citedEvidenceIds.length === 0 ? null : verbatim / citedEvidenceIds.length,
    words: sentences.reduce((n, s) => n + countWords(s.text), 0),
    wallMs: Math.max(0, Math.round(options.wallMs ?? report.metrics.wallMs)),
    ...modelUse(report.metrics),
    lint: {
      sentences: lint.sentences,
      defects: lint.defects.length,
      byKind: lint.byKind,
      examples: LINT_KINDS.flatMap((k) => lint.defects.filter((d) => d.kind === k).slice(0, 3)),
    },
  };
}

/** A question whose run produced no report: it found nothing, and says why. */
export function failedQuestion(question: EvalQuestion, error: string, runId: string | null, wallMs: number): QuestionScore {
  return {
    id: question.id,
    question: question.question,
    runId,
    error,
    keyPoints: question.keyPoints.map((k) => ({ fact: k.fact, found: false, sentence: null })),
    keyPointRecall: 0,
    traps: question.traps.map((t) => ({ statement: t.statement, hit: false, sentence: null })),
    trapHits: 0,
    sources: question.sources.map((p) => ({ path: p, cited: false })),
    sourceRecall: 0,
    citedSentences: 0,
    guardSupported: 0,
    citationSupport: null,
    judgeSupported: null,
    judgeSupport: null,
    excerpts: 0,
    verbatimExcerpts: null,
    excerptVerbatimRate: null,
    words: 0,
    wallMs: Math.max(0, Math.round(wallMs)),
    llmCalls: 0,
    tokensIn: 0,
    tokensOut: 0,
    lint: null,
  };
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Overall figures: recalls are means over questions; supports and rates are pooled over sentences and excerpts. */
export function overallScore(questions: readonly QuestionScore[], judge?: Judge | null): OverallScore {
  const n = questions.length;
  const cited = sum(questions.map((q) => q.citedSentences));
  const judged = questions.filter((q) => q.judgeSupported !== null);
  const checkedExcerpts = questions.filter((q) => q.verbatimExcerpts !== null);
  const excerpts = sum(checkedExcerpts.map((q) => q.excerpts));
  const usage = judge?.usage() ?? { calls: 0, tokensIn: 0, tokensOut: 0 };
  const linted = questions.flatMap((q) => (q.lint ? [q.lint] : []));
  const lintDefects = sum(linted.map((l) => l.defects));
  const lintSentences = sum(linted.map((l) => l.sentences));
  const lintByKind: Record<string, number> = {};
  for (const l of linted) for (const [k, v] of Object.entries(l.byKind)) lintByKind[k] = (lintByKind[k] ?? 0) + v;
  return {
    questions: n,
    failed: questions.filter((q) => q.error !== null).length,
    keyPointRecall: n === 0 ? 0 : sum(questions.map((q) => q.keyPointRecall)) / n,
    keyPointsFound: sum(questions.map((q) => q.keyPoints.filter((k) => k.found).length)),
    keyPoints: sum(questions.map((q) => q.keyPoints.length)),
    trapHits: sum(questions.map((q) => q.trapHits)),
    questionsWithTrapHits: questions.filter((q) => q.trapHits > 0).length,
    sourceRecall: n === 0 ? 0 : sum(questions.map((q) => q.sourceRecall)) / n,
    citedSentences: cited,
    citationSupport: cited === 0 ? null : sum(questions.map((q) => q.guardSupported)) / cited,
    judgeSupport:
      judged.length === 0 || sum(judged.map((q) => q.citedSentences)) === 0
        ? null
        : sum(judged.map((q) => q.judgeSupported ?? 0)) / sum(judged.map((q) => q.citedSentences)),
    excerptVerbatimRate: excerpts === 0 ? null : sum(checkedExcerpts.map((q) => q.verbatimExcerpts ?? 0)) / excerpts,
    wordsPerQuestion: n === 0 ? 0 : sum(questions.map((q) => q.words)) / n,
    wallMs: sum(questions.map((q) => q.wallMs)),
    llmCalls: sum(questions.map((q) => q.llmCalls)),
    tokensIn: sum(questions.map((q) => q.tokensIn)),
    tokensOut: sum(questions.map((q) => q.tokensOut)),
    judgeCalls: usage.calls,
    judgeTokensIn: usage.tokensIn,
    judgeTokensOut: usage.tokensOut,
    lintDefects: linted.length === 0 ? null : lintDefects,
    lintSentences: linted.length === 0 ? null : lintSentences,
    lintPer100: linted.length === 0 ? null : lintSentences === 0 ? 0 : (100 * lintDefects) / lintSentences,
    lintByKind: linted.length === 0 ? null : lintByKind,
  };
}

/** The eval report of a set: its questions' scores and the overall figures. */
export function evalReport(
  set: EvalSet,
  run: { engine: 'offline' | 'openai'; collection: string; startedAt: Date; judge?: Judge | null },
  questions: QuestionScore[],
): EvalReport {
  return {
    set: { name: set.name, title: set.title },
    engine: run.engine,
    collection: run.collection,
    judgeModel: run.judge?.model ?? null,
    startedAt: run.startedAt.toISOString(),
    questions,
    overall: overallScore(questions, run.judge),
  };
}

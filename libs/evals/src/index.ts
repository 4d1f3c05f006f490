// Built-in evals (issue 13, docs/decisions/0021): eval sets, matching, scoring, eval reports and their comparison.
export { EvalSetError, EvalReportError } from './errors';
export {
  EvalSet,
  EvalQuestion,
  EvalKeyPoint,
  EvalTrap,
  EvalCorpus,
  REPO_ROOT,
  SETS_DIR,
  listEvalSets,
  loadEvalSet,
  parseEvalSet,
  type LoadedEvalSet,
} from './eval-set';
export { normalize, phrasingParts, phrasingMatches, containsPart, firstMatch } from './matching';
export { readTar, safeMemberPath, type TarMember } from './tar-reader';
export {
  lintReport,
  formatLint,
  defectsPer100,
  templateHeading,
  LINT_KINDS,
  type LintKind,
  type LintDefect,
  type ReportLint,
} from './report-lint';
export { EvalReport, LintScore, QuestionScore, OverallScore, KeyPointScore, TrapScore, SourceScore } from './eval-report-schema';
export { scoreQuestion, failedQuestion, overallScore, evalReport, type ScoreOptions, type SourceTextReader } from './scorer';
export { openAIJudgeFromEnv, type Judge } from './judge';
export { METRICS, formatMetric, type MetricSpec } from './metrics';
export { evalJson, evalMarkdown, evalHtml, renderEvalReport } from './eval-report';
export { compareEvalReports, formatComparison, parseEvalReport, type MetricDifference } from './compare';

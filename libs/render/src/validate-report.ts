import { ReportJson } from '@dossier/contracts';
import { InvalidReportError, type ReportIssue } from './errors';

/**
 * Parses an untrusted report model with the `ReportJson` contract, plus the one rule rendering adds:
 * source numbers are unique, because `[N]` in the text must point at exactly one source (and `id="src-N"`
 * must be unique in the HTML). Returns the parsed copy; throws {@link InvalidReportError} listing every issue.
 */
export function validateReport(input: unknown): ReportJson {
  const result = ReportJson.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    throw new InvalidReportError(issues, runIdOf(input));
  }
  const report = result.data;
  const issues: ReportIssue[] = [];
  const byNumber = new Map<number, string>();
  for (const [id, source] of Object.entries(report.sources)) {
    const other = byNumber.get(source.number);
    if (other !== undefined) {
      issues.push({ path: `sources.${id}.number`, message: `source number ${source.number} is also used by ${other}` });
    } else {
      byNumber.set(source.number, id);
    }
  }
  if (issues.length > 0) throw new InvalidReportError(issues, report.runId);
  return report;
}

function runIdOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const runId = (input as { runId?: unknown }).runId;
  return typeof runId === 'string' ? runId : undefined;
}

import { UnrecoverableError } from '@dossier/errors';

/** One problem found in a report model: where (a dotted path into the report) and what. */
export interface ReportIssue {
  path: string;
  message: string;
}

/**
 * The report model handed to a renderer breaks the `report.json` contract. Re-rendering the same model
 * cannot succeed, so the stage fails with the list of issues instead of writing a half-valid report.
 */
export class InvalidReportError extends UnrecoverableError {
  readonly code = 'report_invalid';
  readonly issues: readonly ReportIssue[];

  constructor(issues: readonly ReportIssue[], runId?: string) {
    const listed = issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
    super(`report is invalid (${issues.length} issue${issues.length === 1 ? '' : 's'}): ${listed}`, {
      runId,
      details: { issues },
    });
    this.issues = issues;
  }
}

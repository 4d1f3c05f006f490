import type { ReportJson } from '@dossier/contracts';
import { sortRecord } from './natural-order';
import { validateReport } from './validate-report';

/**
 * `report.json`: the validated report with a stable key order, 2-space indent and a trailing newline, so
 * two renders of the same report are byte-identical and diff cleanly. Object keys follow the contract's
 * field order (zod's parse output is built in schema order, whatever order the input had); the id-keyed
 * records (`evidence`, `claims`, `sources`) are sorted by id (`E2` before `E10`).
 */
export function renderJson(report: ReportJson): string {
  return renderValidatedJson(validateReport(report));
}

/** For callers that already ran `validateReport` on this object (see `renderAll`). */
export function renderValidatedJson(report: ReportJson): string {
  const canonical: ReportJson = {
    ...report,
    evidence: sortRecord(report.evidence),
    claims: sortRecord(report.claims),
    sources: sortRecord(report.sources),
  };
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

import { z } from 'zod';
import { EvalReportError } from './errors';
import { EvalReport } from './eval-report-schema';
import { formatMetric, METRICS, type MetricSpec } from './metrics';

/** One metric of two eval reports: before (A), after (B), B − A, and whether that is better, worse or neither. */
export interface MetricDifference {
  metric: MetricSpec;
  a: number | null;
  b: number | null;
  delta: number | null;
  verdict: 'better' | 'worse' | 'same' | 'n/a';
}

/** Reads an eval.json; `where` names the file in the error. */
export function parseEvalReport(text: string, where: string): EvalReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EvalReportError(`${where} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = EvalReport.safeParse(json);
  if (!parsed.success) {
    throw new EvalReportError(
      `${where} is not an eval report (eval.json): ${z.prettifyError(parsed.error).split('\n').slice(0, 4).join(' ')}`,
    );
  }
  return parsed.data;
}

/** The difference per overall metric (B − A). */
export function compareEvalReports(a: EvalReport, b: EvalReport): MetricDifference[] {
  return METRICS.map((metric) => {
    const va = a.overall[metric.key];
    const vb = b.overall[metric.key];
    if (va === null || vb === null) return { metric, a: va, b: vb, delta: null, verdict: 'n/a' as const };
    const delta = vb - va;
    const sign = Math.sign(delta) * metric.better;
    return { metric, a: va, b: vb, delta, verdict: delta === 0 || metric.better === 0 ? 'same' : sign > 0 ? 'better' : 'worse' };
  });
}

function signed(delta: number | null, format: MetricSpec['format']): string {
  if (delta === null) return '—';
  const text = formatMetric(Math.abs(delta), format);
  return delta > 0 ? `+${text}` : delta < 0 ? `-${text}` : `±${text}`;
}

/** The comparison as lines of a table, with warnings when the two evals are not comparable as such. */
export function formatComparison(a: EvalReport, b: EvalReport): string[] {
  const warnings: string[] = [];
  if (a.set.name !== b.set.name) warnings.push(`warning: different sets (${a.set.name} vs ${b.set.name})`);
  if (a.engine !== b.engine) warnings.push(`warning: different engines (${a.engine} vs ${b.engine})`);
  if (a.judgeModel !== b.judgeModel)
    warnings.push(`warning: different judge models (${a.judgeModel ?? 'none'} vs ${b.judgeModel ?? 'none'})`);
  if (a.overall.questions !== b.overall.questions)
    warnings.push(`warning: different question counts (${a.overall.questions} vs ${b.overall.questions})`);
  const rows = compareEvalReports(a, b).map((d) => [
    d.metric.label,
    formatMetric(d.a, d.metric.format),
    formatMetric(d.b, d.metric.format),
    signed(d.delta, d.metric.format),
    d.verdict === 'same' || d.verdict === 'n/a' ? '' : d.verdict,
  ]);
  const header = ['metric', 'A', 'B', 'B − A', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [...warnings, line(header), ...rows.map(line)];
}

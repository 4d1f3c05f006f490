import type { OverallScore } from './eval-report-schema';

/** A metric of the overall table: how it is named, printed, and which way is better (for compare). */
export interface MetricSpec {
  key: { [K in keyof OverallScore]: OverallScore[K] extends number | null ? K : never }[keyof OverallScore];
  label: string;
  format: 'share' | 'count' | 'ms' | 'number' | 'decimal';
  /** +1: higher is better; -1: lower is better; 0: neither (size, cost). */
  better: 1 | -1 | 0;
}

/** The overall metrics, in the order reports and comparisons list them. */
export const METRICS: readonly MetricSpec[] = [
  { key: 'keyPointRecall', label: 'key-point recall', format: 'share', better: 1 },
  { key: 'sourceRecall', label: 'source recall', format: 'share', better: 1 },
  { key: 'trapHits', label: 'trap hits', format: 'count', better: -1 },
  { key: 'questionsWithTrapHits', label: 'questions with trap hits', format: 'count', better: -1 },
  { key: 'citationSupport', label: 'citation support (guard)', format: 'share', better: 1 },
  { key: 'judgeSupport', label: 'citation support (judge)', format: 'share', better: 1 },
  { key: 'excerptVerbatimRate', label: 'excerpt-verbatim rate', format: 'share', better: 1 },
  { key: 'lintPer100', label: 'lint defects per 100 sentences', format: 'decimal', better: -1 },
  { key: 'lintDefects', label: 'lint defects', format: 'count', better: -1 },
  { key: 'failed', label: 'failed questions', format: 'count', better: -1 },
  { key: 'wordsPerQuestion', label: 'words per question', format: 'number', better: 0 },
  { key: 'wallMs', label: 'time', format: 'ms', better: 0 },
  { key: 'llmCalls', label: 'model calls', format: 'count', better: 0 },
  { key: 'tokensIn', label: 'tokens in', format: 'count', better: 0 },
  { key: 'tokensOut', label: 'tokens out', format: 'count', better: 0 },
  { key: 'judgeCalls', label: 'judge calls', format: 'count', better: 0 },
];

export function formatMetric(value: number | null | undefined, format: MetricSpec['format']): string {
  if (value === null || value === undefined) return '—';
  switch (format) {
    case 'share':
      return value.toFixed(2);
    case 'count':
      return String(Math.round(value));
    case 'ms':
      return `${(value / 1000).toFixed(1)} s`;
    case 'number':
      return value.toFixed(0);
    case 'decimal':
      return value.toFixed(1);
  }
}

import { REPORT_MEDIA_TYPES, type ReportFormat } from '@dossier/contracts';
import { NotAcceptableError } from '../common/http-errors';

const BY_MEDIA: [RegExp, ReportFormat][] = [
  [/^text\/markdown$/, 'md'],
  [/^text\/x-markdown$/, 'md'],
  [/^text\/html$/, 'html'],
  [/^application\/json$/, 'json'],
  [/^application\/pdf$/, 'pdf'],
];

/**
 * The report format an Accept header asks for, by q-value then order; markdown when the client accepts
 * anything (or sends no Accept). Nothing acceptable is a 406.
 */
export function negotiateReportFormat(accept: string | undefined): ReportFormat {
  if (!accept || !accept.trim()) return 'md';
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { type: (type ?? '').trim(), q: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranges) {
    if (r.type === '*/*' || r.type === 'text/*') return 'md';
    const hit = BY_MEDIA.find(([re]) => re.test(r.type));
    if (hit) return hit[1];
  }
  throw new NotAcceptableError(
    `No report format matches Accept "${accept}": use text/markdown, text/html, application/json or application/pdf (or /report.md, .html, .json, .pdf)`,
    {
      details: { available: Object.values(REPORT_MEDIA_TYPES) },
    },
  );
}

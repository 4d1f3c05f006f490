import type { ReportJson } from '@dossier/contracts';

/**
 * Plain-text formatting shared by the Markdown and HTML renderers. Nothing here uses `toLocale*` or the
 * local time zone: the same report renders to the same bytes on every machine.
 */

// Only ISO 8601 with an explicit zone (or a bare date, which JS reads as UTC): `Date.parse` would read
// other shapes such as `March 1, 2025 10:00` in the machine's local time zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function isoUtc(value: string): string | null {
  if (!ISO_INSTANT.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** `2025-03-01T14:22:05.123Z` → `2025-03-01 14:22 UTC`; anything else is shown as given. */
export function formatDateTime(value: string): string {
  const iso = isoUtc(value);
  return iso === null ? value : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `2025-03-01T14:22:05Z` → `2025-03-01`; anything else is shown as given. */
export function formatDate(value: string): string {
  return isoUtc(value)?.slice(0, 10) ?? value;
}

/**
 * The first 12 hex digits of a content hash, enough to tell snapshots apart by eye. An algorithm prefix
 * (`sha256:`) is dropped; a hash that is not hex is returned whole so nothing is hidden.
 */
export function shortHash(contentHash: string): string {
  const hex = contentHash.replace(/^[A-Za-z0-9-]+:/, '');
  return /^[0-9a-fA-F]{12,}$/.test(hex) ? hex.slice(0, 12).toLowerCase() : contentHash;
}

/**
 * `web · official`, from whichever of origin and authority the source has. An authority the classifier could not tell
 * (`unknown`) is left out: "corpus · unknown" beside ten of sixteen sources reads as a defect of the source, not as what
 * it is, the absence of a telling host or word (the JSON keeps the class).
 */
export function sourceProvenance(source: ReportJson['sources'][string]): string {
  return [source.origin, source.authority === 'unknown' ? undefined : source.authority]
    .filter((p): p is NonNullable<typeof p> => p !== undefined)
    .join(' · ');
}

export function groupThousands(n: number): string {
  const [int = '', frac] = String(Math.abs(n)).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

/** `3m 12s`, `1h 02m`, `850ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** The run's cost and effort as short labelled items, for the report footer. */
export function metricItems(metrics: ReportJson['metrics']): string[] {
  return [
    count(metrics.iterations, 'iteration', 'iterations'),
    count(metrics.searches, 'search', 'searches'),
    `${count(metrics.sourcesFetched, 'source', 'sources')} fetched`,
    // Model requests only; the offline engine's plays are no request and no tokens (decision 0040).
    count(metrics.modelRequests ?? metrics.llmCalls, 'model request', 'model requests'),
    ...((metrics.offlinePlays?.total ?? 0) > 0 ? [count(metrics.offlinePlays!.total, 'offline play', 'offline plays')] : []),
    `${groupThousands(metrics.tokensIn)} tokens in / ${groupThousands(metrics.tokensOut)} out`,
    `$${metrics.costUsd.toFixed(2)}`,
    `${formatDuration(metrics.wallMs)} wall time`,
  ];
}

function count(n: number, one: string, many: string): string {
  return `${groupThousands(n)} ${n === 1 ? one : many}`;
}

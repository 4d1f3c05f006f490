const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const integer = new Intl.NumberFormat('en-US');

export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDate = (iso: string | null | undefined): string => (iso ? dateOnly.format(new Date(iso)) : '—');
export const formatInt = (n: number): string => integer.format(n);

/**
 * A source's origin, authority and fetch date as the report files print them (libs/render's sourceProvenance): an
 * authority no rule could tell (`unknown`) is left out rather than shown as a property of the source.
 */
export function sourceMeta(source: { origin?: string | null; authority?: string | null; fetchedAt?: string | null }): string {
  const authority = source.authority && source.authority !== 'unknown' ? source.authority : null;
  return [source.origin ?? 'source', authority, `fetched ${formatDate(source.fetchedAt)}`].filter(Boolean).join(' · ');
}

export function formatUsd(n: number): string {
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

export const STATUS_LABEL: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  awaiting_approval: 'Awaiting approval',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const GATE_LABEL: Record<string, string> = { plan: 'plan', outline: 'outline', publish: 'publish' };

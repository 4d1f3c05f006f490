/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds from `nowMs`
 * (never negative), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  // Seconds per the RFC; a decimal is tolerated because some proxies send one.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  // Only a date with a weekday or month name: Date.parse also accepts bare numbers and odd formats.
  if (Number.isNaN(at) || !/[a-z]{3}/i.test(text)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Exponential backoff with equal jitter: half the step fixed, half random, so workers spread out. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

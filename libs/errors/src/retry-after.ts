/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds from `nowMs`
 * (never negative; a date in the past is 0), or undefined when the header is absent or unreadable, so the
 * caller's own backoff applies. The one parser for every client: model providers, search APIs, the web fetcher.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  // Seconds per the RFC; a decimal is tolerated because some proxies send one.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // Only the HTTP-date shapes (IMF-fixdate and the obsolete RFC 850 / asctime forms all start with a weekday
  // name); Date.parse alone accepts far looser text ("2026-03-01", bare numbers).
  if (!/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Exponential backoff with equal jitter: half the step fixed, half random, so workers spread out. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

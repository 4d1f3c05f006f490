/**
 * Brave's rate-limit headers list one value per window, shortest first: `X-RateLimit-Remaining: 0, 1000`
 * and `X-RateLimit-Reset: 1, 1419704` (seconds until each window resets). On a 429 the wait is the
 * reset of the exhausted window(s) (a spent monthly quota means weeks); when none is reported spent,
 * the shortest window's.
 */
export function braveRateLimitWaitMs(headers: Headers): number | undefined {
  const resets = numbers(headers.get('x-ratelimit-reset'));
  if (resets.length === 0) return undefined;
  const remaining = numbers(headers.get('x-ratelimit-remaining'));
  const spent = resets.filter((_, i) => remaining[i] !== undefined && remaining[i] <= 0);
  const seconds = spent.length > 0 ? Math.max(...spent) : Math.min(...resets);
  return Math.ceil(seconds * 1000);
}

function numbers(value: string | null): number[] {
  if (!value) return [];
  const parts = value.split(',').map((p) => Number(p.trim()));
  return parts.every((n) => Number.isFinite(n) && n >= 0) ? parts : [];
}

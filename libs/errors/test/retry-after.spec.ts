import { backoffMs, parseRetryAfter } from '../src';

describe('parseRetryAfter (the one parser: model providers, search APIs, the web fetcher)', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delay-seconds, a decimal some proxies send, and surrounding spaces', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('2025', now)).toBe(2_025_000); // digits are seconds, not a year
  });

  it('reads an HTTP date as the time left until it; a date in the past is 0', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:00 GMT', now)).toBe(60_000); // RFC 850, obsolete but allowed
  });

  it('is undefined when absent or unreadable, so the caller backs off on its own', () => {
    for (const junk of [undefined, null, '', '  ', '-5', 'soon', '2026-03-01', '2026-03-01T12:00:30Z', 'Mar 2026'])
      expect(parseRetryAfter(junk, now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from the base, capped, with at least half of each step fixed', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, 100, 1000, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, 100, 1000, () => 0))).toEqual([50, 100, 200, 400, 500]);
  });
});

import { formatDate, formatDateTime, formatDuration, groupThousands, metricItems, shortHash, sourceProvenance } from '../src/format';
import { naturalCompare } from '../src/natural-order';

describe('formatting', () => {
  it('shows ISO instants in UTC and anything else as given (no local-time guessing)', () => {
    expect(formatDateTime('2025-03-01T23:59:59+02:00')).toBe('2025-03-01 21:59 UTC');
    expect(formatDateTime('2025-03-01')).toBe('2025-03-01 00:00 UTC');
    expect(formatDateTime('March 1, 2025 10:00')).toBe('March 1, 2025 10:00');
    expect(formatDate('2025-02-27T23:30:00-01:00')).toBe('2025-02-28');
    expect(formatDate('yesterday')).toBe('yesterday');
  });

  it('shortens hex content hashes to 12 digits and keeps anything else whole', () => {
    expect(shortHash(`sha256:${'AB12'.repeat(16)}`)).toBe('ab12ab12ab12');
    expect(shortHash('0123456789abcdef')).toBe('0123456789ab');
    expect(shortHash('not-a-hash')).toBe('not-a-hash');
    expect(shortHash('sha256:abc')).toBe('sha256:abc');
  });

  it("names a source's origin and authority, and leaves out an authority no rule could tell", () => {
    const source = { number: 1, url: 'corpus://examples/a.md', title: 'A', fetchedAt: '2025-02-20', contentHash: 'feedc0ffee12' } as const;
    expect(sourceProvenance({ ...source, origin: 'corpus', authority: 'academic' })).toBe('corpus · academic');
    expect(sourceProvenance({ ...source, origin: 'corpus', authority: 'unknown' })).toBe('corpus');
    expect(sourceProvenance({ ...source, authority: 'official' })).toBe('official');
  });

  it('formats counts and durations without locale data', () => {
    expect(groupThousands(1234567)).toBe('1,234,567');
    expect(groupThousands(999)).toBe('999');
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(192_400)).toBe('3m 12s');
    expect(formatDuration(3_725_000)).toBe('1h 02m');
    expect(
      metricItems({ iterations: 1, llmCalls: 1, tokensIn: 1000, tokensOut: 1, costUsd: 0, wallMs: 1, searches: 1, sourcesFetched: 1 }),
    ).toEqual(['1 iteration', '1 search', '1 source fetched', '1 model request', '1,000 tokens in / 1 out', '$0.00', '1ms wall time']);
    // Offline plays are counted apart from model requests, never as tokens (decision 0040).
    expect(
      metricItems({
        iterations: 1,
        llmCalls: 0,
        modelRequests: 0,
        offlinePlays: { total: 41, byRole: { director: 1, evidenceCurator: 40 } },
        tokensIn: 0,
        tokensOut: 0,
        costUsd: 0,
        wallMs: 1,
        searches: 1,
        sourcesFetched: 1,
      }).slice(3, 5),
    ).toEqual(['0 model requests', '41 offline plays']);
  });

  it('orders ids naturally and totally', () => {
    const ids = ['E10', 'E2', 'C1', 'E1', 'E02', 'S3', 'E', 'E1a'];
    expect([...ids].sort(naturalCompare)).toEqual(['C1', 'E', 'E1', 'E1a', 'E02', 'E2', 'E10', 'S3']);
  });
});

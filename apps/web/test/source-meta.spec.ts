import { sourceMeta } from '../src/ui/format';

describe("the web app's line under a source", () => {
  it('names origin, authority and fetch date as the report files do, and leaves out an authority no rule could tell', () => {
    expect(sourceMeta({ origin: 'corpus', authority: 'academic', fetchedAt: '2025-02-20T10:00:00Z' })).toBe(
      'corpus · academic · fetched 20 Feb 2025',
    );
    expect(sourceMeta({ origin: 'corpus', authority: 'unknown', fetchedAt: '2025-02-20T10:00:00Z' })).toBe('corpus · fetched 20 Feb 2025');
    expect(sourceMeta({ authority: null, fetchedAt: null })).toBe('source · fetched —');
  });
});

import { assertExcerpt, corpusUrl, ExcerptMismatchError, ExcerptRangeError, parseCorpusUrl, sliceText, SnapshotStore } from '../../src';

describe('excerpts', () => {
  const text = 'Lake Varen 🌊 fell 4.2 m in 2023.\n\nThe dam operator disputes it.';

  it('accepts the exact text at [start, end) and refuses anything else', () => {
    const start = text.indexOf('fell');
    const end = start + 'fell 4.2 m'.length;
    expect(() => assertExcerpt(text, 'fell 4.2 m', start, end)).not.toThrow();
    expect(() => assertExcerpt(text, 'fell 4.3 m', start, end)).toThrow(ExcerptMismatchError);
    expect(() => assertExcerpt(text, 'fell 4.2 m', start + 1, end + 1)).toThrow(ExcerptMismatchError);
    for (const [start, end] of [
      [-1, 0],
      [5, 4],
      [0, text.length + 1],
      [0.5, 1],
    ] as const) {
      expect(() => assertExcerpt(text, 'x', start, end)).toThrow(ExcerptMismatchError);
      expect(() => sliceText(text, start, end)).toThrow(ExcerptRangeError);
    }
  });

  it('counts offsets in UTF-16 code units, like String.prototype.slice', () => {
    const start = text.indexOf('🌊');
    expect(sliceText(text, start, start + 2)).toBe('🌊');
    expect(new SnapshotStore().slice({ text }, start + 2, start + 7)).toBe(' fell');
  });
});

describe('corpus URLs', () => {
  it('round-trips collection and path, percent-encoding what needs it', () => {
    expect(corpusUrl('docs', 'reports/2024/levels.md')).toBe('corpus://docs/reports/2024/levels.md');
    const odd = corpusUrl('my notes', 'a b/#1 ü?.md');
    expect(odd).toBe('corpus://my%20notes/a%20b/%231%20%C3%BC%3F.md');
    expect(parseCorpusUrl(odd)).toEqual({ collection: 'my notes', path: 'a b/#1 ü?.md' });
    expect(parseCorpusUrl('https://example.com/x')).toBeUndefined();
    expect(parseCorpusUrl('corpus://c/%E0%A4%A')).toBeUndefined();
  });
});

import { JsonBoundsScanner, type JsonBounds } from '../../src';

const BOUNDS: JsonBounds = { maxDepth: 4, maxItems: 3, maxStringChars: 8 };

/** Scans `text` in chunks of `size` characters (the bounds must hold whatever the chunking). */
function scan(text: string, size = 3, bounds = BOUNDS): string {
  const scanner = new JsonBoundsScanner(bounds);
  try {
    for (let i = 0; i < text.length; i += size) scanner.feed(text.slice(i, i + size));
    scanner.end();
    return 'ok';
  } catch (err) {
    return (err as Error).message.replace(/ \(at character \d+\)$/, '');
  }
}

describe('JsonBoundsScanner', () => {
  it('passes JSON within its bounds, whatever the chunking', () => {
    const text = JSON.stringify({ a: [1, 2, { b: 'eight ch' }], 'k\\"ey': 'x\\ny', e: [], o: {}, emoji: '😀😀😀😀' });
    for (const size of [1, 2, 3, 7, 1000]) expect(scan(text, size, { ...BOUNDS, maxItems: 5 })).toBe('ok');
  });

  it('refuses nesting deeper than its bound', () => {
    expect(scan('[[[[1]]]]')).toBe('ok');
    expect(scan('[[[[[1]]]]]')).toBe('arrays and objects nested deeper than 4 levels');
    expect(scan('{"a":{"b":{"c":{"d":{}}}}}')).toBe('arrays and objects nested deeper than 4 levels');
    // Brackets inside strings are text.
    expect(scan('["[[[[[[["]', 3, { ...BOUNDS, maxStringChars: 100 })).toBe('ok');
  });

  it('refuses arrays and objects with more items than its bound', () => {
    expect(scan('[1,2,3]')).toBe('ok');
    expect(scan('[1,2,3,4]')).toBe('an array with more than 3 items');
    expect(scan('{"a":1,"b":2,"c":3,"d":4}')).toBe('an object with more than 3 items');
    expect(scan('[[1,2,3],[1,2,3],"a,b,c,d"]')).toBe('ok');
  });

  it('refuses a long string, counting escapes as the characters they stand for', () => {
    expect(scan('"12345678"')).toBe('ok');
    expect(scan('"123456789"')).toBe('a string longer than 8 characters');
    expect(scan('"\\u0041\\u0042\\n\\t\\"\\\\78"')).toBe('ok');
    expect(scan('{"123456789":1}')).toBe('a string longer than 8 characters');
  });

  it('refuses NUL and lone surrogates, raw or escaped; a pair is fine', () => {
    expect(scan('"a\\u0000"')).toBe('a NUL character in a string');
    expect(scan('"a\u0000"')).toBe('a NUL character in a string');
    expect(scan('"\\ud83d\\ude00"')).toBe('ok');
    expect(scan('"\\ud83d"')).toBe('a string with a lone UTF-16 surrogate');
    expect(scan('"\\ude00"')).toBe('a string with a lone UTF-16 surrogate');
    expect(scan('"\\ud83dx"')).toBe('a string with a lone UTF-16 surrogate');
    expect(scan('"\\uZZZZ"')).toBe('a \\u escape with a character that is not hex');
  });

  it('scans 200,000 levels of brackets without recursion: refused at the bound', () => {
    expect(scan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 65_536, { ...BOUNDS, maxDepth: 64 })).toBe(
      'arrays and objects nested deeper than 64 levels',
    );
  });
});

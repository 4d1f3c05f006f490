import { escapeMarkdown, markdownUrl } from '../src';
import { escapeMarkdownLines } from '../src/escape-markdown';

describe('escapeMarkdown', () => {
  it.each([
    ['*bold* and _em_', '\\*bold\\* and \\_em\\_'],
    ['`code`', '\\`code\\`'],
    ['[x](javascript:alert(1))', '\\[x\\](javascript:alert(1))'],
    ['![img](https://x/y.png)', '!\\[img\\](https\\://x/y.png)'],
    ['<script>alert(1)</script>', '\\<script\\>alert(1)\\</script\\>'],
    ['<https://autolink.example>', '\\<https\\://autolink.example\\>'],
    ['see https://evil.example/x', 'see https\\://evil.example/x'],
    ['visit www.evil.example or WWW.x.example', 'visit www\\.evil.example or WWW\\.x.example'],
    ['mail a@b.example', 'mail a\\@b.example'],
    ['~~gone~~', '\\~\\~gone\\~\\~'],
    ['back\\slash', 'back\\\\slash'],
    ['AT&amp;T &#60; &x', 'AT\\&amp;T \\&#60; &x'],
  ])('escapes inline syntax in %j', (text, expected) => {
    expect(escapeMarkdown(text)).toBe(expected);
  });

  it.each([
    ['# Heading', '\\# Heading'],
    ['Title #', 'Title \\#'],
    ['C# and F#', 'C# and F#'],
    ['- item', '\\- item'],
    ['+ item', '\\+ item'],
    ['---', '\\---'],
    ['===', '\\==='],
    ['1. first', '1\\. first'],
    ['2023) was a year', '2023\\) was a year'],
    ['> quote', '\\> quote'],
  ])('escapes a block marker in %j', (text, expected) => {
    expect(escapeMarkdown(text)).toBe(expected);
  });

  it('collapses newlines and indentation so text cannot start a new block', () => {
    expect(escapeMarkdown('first line\n\n# second\n    code?')).toBe('first line \\# second code?');
  });

  it('leaves ordinary prose alone', () => {
    const prose = "California's fleet grew to 8,000 MW (2023), i.e. 16x; prices fell 12%.";
    expect(escapeMarkdown(prose)).toBe(prose);
  });

  it('escapes each line of a multi-line excerpt separately, keeping blank lines', () => {
    expect(escapeMarkdownLines('one\n\n# two\n  - three')).toEqual(['one', '', '\\# two', '\\- three']);
  });
});

describe('markdownUrl', () => {
  it('keeps a URL intact while making it unable to end the link destination early', () => {
    expect(markdownUrl('https://en.wikipedia.org/wiki/Battery_(electricity)')).toBe(
      'https://en.wikipedia.org/wiki/Battery_\\(electricity\\)',
    );
    expect(markdownUrl('corpus:a b<c>')).toBe('corpus:a%20b%3Cc%3E');
    expect(markdownUrl('https://x.example/?a=1&amp;b=2&c=3')).toBe('https://x.example/?a=1\\&amp;b=2&c=3');
  });
});

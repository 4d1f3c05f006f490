import { escapeHtml } from '../src';
import { cssClassToken } from '../src/escape-html';

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('leaves ordinary text, including non-ASCII, untouched', () => {
    expect(escapeHtml('Prices fell 12% — “mostly” in 2023. ünïcödé')).toBe('Prices fell 12% — “mostly” in 2023. ünïcödé');
  });

  it('escapes an existing entity again, because report text is never HTML', () => {
    expect(escapeHtml('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });

  it('replaces NUL and other control characters that HTML forbids, keeping tab and newlines', () => {
    expect(escapeHtml('a\u0000b\u0007c\td\ne\rf')).toBe('a\ufffdb\ufffdc\td\ne\rf');
  });

  it('makes class tokens from arbitrary text', () => {
    expect(cssClassToken('budget_exhausted')).toBe('budget_exhausted');
    expect(cssClassToken('" onmouseover="x')).toBe('onmouseover-x');
    expect(cssClassToken('<>')).toBe('unknown');
  });
});

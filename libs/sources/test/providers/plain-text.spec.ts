import { plainText } from '../../src';

describe('plainText', () => {
  it('drops tags, decodes entities once, collapses whitespace', () => {
    expect(plainText('The <strong>lake</strong> fell&nbsp;6.1 m &mdash; <a href="x">KRWA</a>&#39;s &#x201C;bulletin&#x201D;\n\n')).toBe(
      "The lake fell 6.1 m — KRWA's “bulletin”",
    );
    expect(plainText('&amp;lt;b&amp;gt; is a tag')).toBe('&lt;b&gt; is a tag');
    expect(plainText('&lt;b&gt; stays text')).toBe('<b> stays text');
  });

  it('leaves what is not markup alone', () => {
    expect(plainText('a < b and c > d')).toBe('a < b and c > d');
    expect(plainText('&valueOf; &constructor; &bogus; &#xD800; AT&T')).toBe('&valueOf; &constructor; &bogus; &#xD800; AT&T');
  });
});

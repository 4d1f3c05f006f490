import { InvalidReportError, REPORT_CSP, escapeHtml, renderHtml } from '../src';
import { auditTags, unescapeHtml } from './html-audit';
import { fixtureReport, hostileReport } from '@dossier/testing';

const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'header',
  'footer',
  'section',
  'h1',
  'h2',
  'p',
  'span',
  'code',
  'time',
  'a',
  'ol',
  'li',
  'dl',
  'div',
  'dt',
  'dd',
  'blockquote',
]);
const ALLOWED_ATTRS = new Set([
  'lang',
  'charset',
  'http-equiv',
  'content',
  'name',
  'class',
  'id',
  'href',
  'title',
  'rel',
  'value',
  'datetime',
]);

/** The `[N]` links right after a sentence's escaped text. */
function citesAfter(html: string, text: string): { numbers: number[]; titles: string[] } {
  const at = html.indexOf(escapeHtml(text));
  if (at === -1) throw new Error(`sentence not rendered: ${text}`);
  const rest = html.slice(at + escapeHtml(text).length);
  const run = /^(?:<a class="cite" href="#src-\d+" title="[^"]*">\[\d+\]<\/a>)*/.exec(rest)![0];
  const links = [...run.matchAll(/<a class="cite" href="#src-(\d+)" title="([^"]*)">\[(\d+)\]<\/a>/g)];
  for (const l of links) expect(l[1]).toBe(l[3]);
  return { numbers: links.map((l) => Number(l[1])), titles: links.map((l) => unescapeHtml(l[2]!)) };
}

describe('renderHtml', () => {
  const html = renderHtml(fixtureReport());
  const hostile = renderHtml(hostileReport());

  it('is one HTML5 document with a strict CSP as the first rule in <head>', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')).toBe(true);
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    const csp = auditTags(html).filter((t) => t.name === 'meta' && t.attrs['http-equiv'] === 'Content-Security-Policy');
    expect(csp.map((t) => unescapeHtml(t.attrs['content']!))).toEqual([REPORT_CSP]);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<title>'));
    expect(html.endsWith('</html>\n')).toBe(true);
  });

  it('loads nothing and runs nothing', () => {
    for (const doc of [html, hostile]) {
      expect(doc).not.toMatch(/<script/i);
      expect(doc).not.toMatch(/<(img|iframe|object|embed|link|base|form|svg)\b/i);
      expect(doc).not.toMatch(/@import|url\(/i);
    }
  });

  it('emits only known tags and attributes, with no event handlers (hostile input included)', () => {
    for (const doc of [html, hostile]) {
      const tags = auditTags(doc);
      expect(tags.length).toBeGreaterThan(50);
      for (const tag of tags) {
        expect(ALLOWED_TAGS).toContain(tag.name);
        for (const attr of Object.keys(tag.attrs)) expect(ALLOWED_ATTRS).toContain(attr);
      }
    }
  });

  it('links only to its own sources and to http, https or corpus URLs', () => {
    for (const doc of [html, hostile]) {
      const tags = auditTags(doc);
      const ids = new Set(tags.map((t) => t.attrs['id']).filter(Boolean));
      for (const href of tags.map((t) => t.attrs['href']).filter((h): h is string => h !== undefined)) {
        const url = unescapeHtml(href);
        if (url.startsWith('#')) expect(ids).toContain(url.slice(1));
        else expect(url).toMatch(/^(https?|corpus):/);
      }
    }
  });

  it('follows every cited sentence with de-duplicated, ascending links to its sources', () => {
    const expected: [string, number[]][] = [
      ["California's grid battery fleet grew from roughly 500 MW in 2020 to over 8,000 MW by the end of 2023.", [2]],
      ['On several days in 2023, batteries discharged up to 5,600 MW during the evening net-load peak.', [1]],
      ['Batteries now often set the marginal price during the evening ramp, when their discharge is largest.', [1]],
      ['One analysis finds that average evening peak prices fell 12% between 2021 and 2023 once gas prices are controlled for.', [4]],
      ['The same analysis finds no significant effect before 2022, when the fleet was still small.', [4]],
      ['Wholesale prices across the West rose in 2022, driven mainly by natural gas prices.', [2]],
      ['Any price effect of storage is therefore small next to the effect of fuel costs.', [2, 4]],
      [
        'One study credits storage with a 12% fall in evening peak prices, while EIA attributes the 2023 decline mainly to cheaper natural gas.',
        [2, 4],
      ],
    ];
    const report = fixtureReport();
    const cited = report.sections
      .filter((s) => s.kind === 'body' || s.kind === 'contradictions')
      .flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    expect(cited.map((s) => s.text)).toEqual(expected.map(([text]) => text));
    for (const [text, numbers] of expected) expect(citesAfter(html, text).numbers).toEqual(numbers);
    expect(citesAfter(html, 'It separates the growth of storage from its measured effect on prices.').numbers).toEqual([]);
  });

  it('shows the cited excerpts on hover, one link per source even for two excerpts', () => {
    const { titles } = citesAfter(
      html,
      'Batteries now often set the marginal price during the evening ramp, when their discharge is largest.',
    );
    expect(titles).toEqual([
      'E2: “Storage resources increasingly set the marginal price in the evening ramp hours.”\n\n' +
        'E1: “Battery discharge during the evening net-load peak reached 5,600 MW on several days in 2023.”',
    ]);
  });

  it('lists only cited sources, each once, with id src-N and the number N', () => {
    const items = auditTags(html).filter((t) => t.name === 'li' && !t.closing);
    expect(items.map((t) => [t.attrs['id'], t.attrs['value']])).toEqual([
      ['src-1', '1'],
      ['src-2', '2'],
      ['src-4', '4'],
    ]);
    expect(html).not.toContain('forum.example.org');
    expect(html).not.toContain('Batteries and prices');
    expect(html).toContain(
      '<a href="https://www.eia.gov/todayinenergy/detail.php?id=61202&amp;src=email" rel="noopener noreferrer nofollow">U.S. battery capacity increased 66% in the first half of 2024</a>',
    );
    expect(html).toContain('— corpus · academic · fetched 2025-02-20 · hash feedc0ffee12');
  });

  it('gives each section its kind as a class, in order', () => {
    const sections = auditTags(html).filter((t) => t.name === 'section' && !t.closing && t.attrs['class']!.startsWith('section '));
    expect(sections.map((t) => t.attrs['class'])).toEqual([
      'section framing',
      'section body',
      'section body',
      'section body',
      'section contradictions',
      'section method',
    ]);
  });

  it('escapes hostile text everywhere instead of interpreting it', () => {
    expect(hostile).toContain('<title>&lt;img src=x onerror=alert(1)&gt; # Is `this` *safe*?</title>');
    expect(hostile).toContain('<h2># Growth &lt;/section&gt;&lt;script&gt;alert(4)&lt;/script&gt;</h2>');
    expect(hostile).toContain('<span class="title">&lt;script&gt;alert(1)&lt;/script&gt;</span>');
    expect(hostile).toContain(
      '&lt;b&gt;x&lt;/b&gt; &amp;amp; &#39;q&#39; &quot;dq&quot;<a class="cite" href="#src-2" title="E3: “He said &quot;it&#39;s fine&quot; &lt;img src=x onerror=alert(1)&gt; and left.”">[2]</a>',
    );
    expect(hostile).toContain('<blockquote>He said &quot;it&#39;s fine&quot; &lt;img src=x onerror=alert(1)&gt; and left.</blockquote>');
  });

  it('shows javascript:, data: and obfuscated URLs as text, never as links', () => {
    expect(hostile).toContain('<span class="url">javascript:alert(1)</span>');
    expect(hostile).toContain('<span class="url">data:text/html,&lt;script&gt;alert(3)&lt;/script&gt;</span>');
    expect(hostile).toContain('<span class="url"> JaVa\tScRiPt:alert(2)</span>');
    expect(hostile).toContain('<span class="title">2023 Special Report on Battery Storage</span>');
    expect(hostile).not.toMatch(/href="[^"#]/); // no external link survives: all three sources were hostile
  });

  it('is deterministic, also when records are built in another order', () => {
    const report = fixtureReport();
    const reversed = { ...report, evidence: Object.fromEntries(Object.entries(report.evidence).reverse()) };
    expect(renderHtml(fixtureReport())).toBe(html);
    expect(renderHtml(reversed)).toBe(html);
  });

  it('validates first', () => {
    const report = fixtureReport();
    report.sections[4]!.paragraphs[0]!.sentences[0]!.evidenceIds = [];
    expect(() => renderHtml(report)).toThrow(InvalidReportError);
  });
});

import { InvalidReportError, escapeMarkdown, renderMarkdown } from '../src';
import { fixtureReport, hostileReport } from '@dossier/testing';

/** Source numbers each body/contradictions sentence must show, worked out by hand from the fixture. */
const EXPECTED_MARKS: [string, string][] = [
  ["California's grid battery fleet grew", '[2]'],
  ['On several days in 2023, batteries discharged', '[1]'],
  ['Batteries now often set the marginal price', '[1]'], // cites E2 and E1, both from S1
  ['One analysis finds that average evening peak prices fell', '[4]'],
  ['The same analysis finds no significant effect', '[4]'],
  ['Wholesale prices across the West rose in 2022', '[2]'],
  ['Any price effect of storage is therefore small', '[2][4]'],
  ['One study credits storage with a 12% fall', '[2][4]'], // cites E4 (S4) then E6 (S2): ascending
];

function section(md: string, heading: string): string {
  const start = md.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`no section ${heading}`);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end === -1 ? undefined : end);
}

describe('renderMarkdown', () => {
  const md = renderMarkdown(fixtureReport());

  it('starts with the question as H1 and a metadata line', () => {
    const [h1, blank, meta] = md.split('\n');
    expect(h1).toBe('# Has grid-scale battery storage lowered evening peak electricity prices in California since 2020?');
    expect(blank).toBe('');
    expect(meta).toBe('Run: run\\_01HZX4K9Q2 · Engine: web · Created: 2025-03-01 14:22 UTC · Status: completed');
  });

  it('renders every section as H2, in order, then Sources and Evidence', () => {
    const h2 = md.split('\n').filter((l) => l.startsWith('## '));
    expect(h2).toEqual([
      '## Scope',
      '## Growth of the battery fleet',
      '## Effect on evening peak prices',
      '## Confounding factors',
      '## Where the sources disagree',
      '## How this report was made',
      '## Sources',
      '## Evidence',
    ]);
    expect(md.split('\n').filter((l) => l.startsWith('# '))).toHaveLength(1);
  });

  it('follows every cited sentence with its de-duplicated, ascending source numbers', () => {
    const report = fixtureReport();
    const sentences = report.sections
      .filter((s) => s.kind === 'body' || s.kind === 'contradictions')
      .flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    expect(sentences).toHaveLength(EXPECTED_MARKS.length);
    for (const sentence of sentences) {
      const expected = EXPECTED_MARKS.find(([start]) => sentence.text.startsWith(start));
      expect(expected).toBeDefined();
      expect(md).toContain(`${escapeMarkdown(sentence.text)} ${expected![1]}`);
    }
    // A sentence citing two excerpts of one source shows that source once.
    expect(md).not.toContain('[1][1]');
    expect(md).toContain('when their discharge is largest. [1] One analysis');
  });

  it('keeps the contradictions section as written, both sides cited', () => {
    expect(section(md, 'Where the sources disagree')).toBe(
      '\n## Where the sources disagree\n\nOne study credits storage with a 12% fall in evening peak prices, while EIA attributes the 2023 decline mainly to cheaper natural gas. [2][4]\n',
    );
  });

  it('adds no citation marks to framing and method sentences', () => {
    expect(section(md, 'Scope')).not.toMatch(/\[\d+\]/);
    expect(section(md, 'How this report was made')).not.toMatch(/\[\d+\]/);
  });

  it('lists only cited sources, each once, numbered by source.number', () => {
    const sources = section(md, 'Sources').trim().split('\n').slice(2);
    expect(sources).toEqual([
      '1. [2023 Special Report on Battery Storage](https://www.caiso.com/documents/2023-special-report-on-battery-storage.pdf) — web · official · fetched 2025-02-27 · hash a1b2c3d4e5f6',
      '2. [U.S. battery capacity increased 66% in the first half of 2024](https://www.eia.gov/todayinenergy/detail.php?id=61202&src=email) — web · official · fetched 2025-02-27 · hash 0f1e2d3c4b5a',
      // After the gap left by uncited source 3, a new list (new delimiter) so renderers keep the number 4.
      '4) [Utility-Scale Storage and Wholesale Prices (LBNL, 2024)](corpus://lbnl/utility-scale-storage-2024.pdf) — corpus · academic · fetched 2025-02-20 · hash feedc0ffee12',
    ]);
    expect(md).not.toContain('forum.example.org');
    expect(md).not.toContain('Batteries and prices');
  });

  it('uses one ordered list when the cited numbers have no gap', () => {
    const report = fixtureReport();
    report.sources['S3']!.number = 5;
    report.sources['S4']!.number = 3;
    const lines = section(renderMarkdown(report), 'Sources').trim().split('\n').slice(2);
    expect(lines.map((l) => l.slice(0, 3))).toEqual(['1. ', '2. ', '3. ']);
  });

  it('omits origin and authority when the source has neither', () => {
    const report = fixtureReport();
    delete report.sources['S1']!.origin;
    delete report.sources['S1']!.authority;
    expect(renderMarkdown(report)).toContain(
      '(https://www.caiso.com/documents/2023-special-report-on-battery-storage.pdf) — fetched 2025-02-27 · hash a1b2c3d4e5f6\n',
    );
  });

  it('quotes each cited excerpt in the evidence appendix with its source number', () => {
    const evidence = section(md, 'Evidence');
    expect(evidence).toContain(
      '**E1** · source [1]\n\n> Battery discharge during the evening net-load peak reached 5,600 MW on several days in 2023.',
    );
    expect(evidence).toContain(
      '**E5** · source [2]\n\n> Wholesale electricity prices in the West rose in 2022,\n> driven primarily by higher natural gas prices.',
    );
    expect(evidence).toContain('**E7** · source [4]');
    expect(evidence).not.toContain('E8'); // cites uncited source S3
    expect(renderMarkdown(fixtureReport(), { evidenceAppendix: false })).not.toContain('## Evidence');
  });

  it('ends with run metrics and one trailing newline', () => {
    expect(
      md.endsWith(
        '\n\n---\n\nRun metrics: 3 iterations · 14 searches · 22 sources fetched · 48 model requests · 182,340 tokens in / 12,877 out · $0.42 · 3m 12s wall time\n',
      ),
    ).toBe(true);
  });

  it('is deterministic, also when records are built in another order', () => {
    const report = fixtureReport();
    const reversed = { ...report, sources: Object.fromEntries(Object.entries(report.sources).reverse()) };
    expect(renderMarkdown(fixtureReport())).toBe(md);
    expect(renderMarkdown(reversed)).toBe(md);
  });

  it('validates first', () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = [];
    expect(() => renderMarkdown(report)).toThrow(InvalidReportError);
  });

  describe('with hostile text', () => {
    const hostile = renderMarkdown(hostileReport());

    it('escapes the question, section titles and sentences', () => {
      expect(hostile.split('\n')[0]).toBe('# \\<img src=x onerror=alert(1)\\> \\# Is \\`this\\` \\*safe\\*?');
      expect(hostile).toContain('\n## \\# Growth \\</section\\>\\<script\\>alert(4)\\</script\\>\n');
      expect(hostile).toContain(
        '\n\\# Not a heading \\*really\\* \\_em\\_ \\`code\\` \\[link\\](https\\://evil.example) \\<b\\>x\\</b\\> \\&amp; \'q\' "dq" [2] On several',
      );
    });

    it('contains no raw HTML, no injected link and no extra heading', () => {
      expect(hostile).not.toMatch(/(^|[^\\])<[a-zA-Z/]/m);
      expect(hostile).not.toContain('[link](');
      expect(hostile.split('\n').filter((l) => /^#{1,6} /.test(l))).toHaveLength(9);
    });

    it('shows a source with a non-web URL as text, never as a link', () => {
      const sources = section(hostile, 'Sources');
      expect(sources).toContain('1. 2023 Special Report on Battery Storage (JaVa ScRiPt:alert(2)) — web');
      expect(sources).toContain('2. \\<script\\>alert(1)\\</script\\> (javascript:alert(1)) — web');
      expect(sources).toContain(
        '4) Utility-Scale Storage and Wholesale Prices (LBNL, 2024) (data:text/html,\\<script\\>alert(3)\\</script\\>) — corpus',
      );
      expect(sources).not.toMatch(/\]\(/);
    });

    it('escapes a hostile excerpt in the evidence appendix', () => {
      expect(hostile).toContain('> He said "it\'s fine" \\<img src=x onerror=alert(1)\\> and left.');
    });
  });
});

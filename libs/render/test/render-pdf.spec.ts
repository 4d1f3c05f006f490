import type { ReportJson } from '@dossier/contracts';
import { compactText, fixtureReport, readPdf } from '@dossier/testing';
import { indexCitations, InvalidReportError, renderPdf } from '../src';

/** Every `[N]` a reader should see: the cited source numbers of each sentence, in order. */
function citationMarks(report: ReportJson): string[] {
  const index = indexCitations(report);
  return report.sections.flatMap((s) =>
    s.paragraphs.flatMap((p) =>
      p.sentences.map((sentence) =>
        index
          .citationsOf(sentence)
          .map((c) => `[${c.number}]`)
          .join(''),
      ),
    ),
  );
}

describe('renderPdf', () => {
  it('holds every section title, citation number and cited source URL of the report, read back by PDF.js', async () => {
    const report = fixtureReport();
    const pdf = await readPdf(await renderPdf(report));
    const text = compactText(pdf.text);
    for (const section of report.sections) expect(text).toContain(compactText(section.title));
    for (const marks of citationMarks(report).filter(Boolean)) expect(text).toContain(marks);
    for (const { source } of indexCitations(report).citedSources) {
      expect(text).toContain(compactText(source.url));
      expect(text).toContain(compactText(source.title));
    }
    // The disagreement and the method are sections of the report; every sentence of them is printed.
    for (const sentence of report.sections.filter((s) => s.kind !== 'body').flatMap((s) => s.paragraphs.flatMap((p) => p.sentences))) {
      expect(text).toContain(compactText(sentence.text));
    }
    // The uncited source (S3) is not listed, as in report.md and report.html.
    expect(text).not.toContain(compactText(report.sources['S3']!.url));
  });

  it('starts with a title page: question, date, engine and the verification figures', async () => {
    const report = fixtureReport();
    report.metrics.verification = {
      checked: 41,
      sentences: 30,
      supported: 27,
      failedByGuard: 3,
      failedByJudge: 5,
      repaired: 6,
      removed: 2,
    };
    const pdf = await readPdf(await renderPdf(report));
    const first = compactText(pdf.pages[0]!);
    expect(first).toContain(compactText(report.question));
    expect(first).toContain('2025-03-0114:22UTC');
    expect(first).toContain('Engineweb');
    for (const [label, n] of [
      // The three figures (decision 0086), in the words of every format and the web app.
      ['Checksmade', 41],
      ['Sentencesinthereport', 30],
      ['Supportedbytheircitedpassages', 27],
      ['Failedtheguard', 3],
      ['Failedthejudge', 5],
      ['Repaired', 6],
      ['Removed', 2],
    ] as const) {
      expect(first).toContain(`${label}${n}`);
    }
    // The body starts on the next page.
    expect(first).not.toContain(compactText(report.sections[0]!.title));
    expect(pdf.title).toBe(report.question);
  });

  it('links web sources, never another scheme, and points each [N] at its source entry', async () => {
    const report = fixtureReport();
    report.sources['S2']!.url = 'javascript:alert(1)';
    const pdf = await readPdf(await renderPdf(report));
    expect(pdf.links).toContain(report.sources['S1']!.url);
    expect(pdf.links.every((l) => /^https?:/.test(l))).toBe(true);
    // Shown as text, not linked: the reader sees where the source claims to be.
    expect(compactText(pdf.text)).toContain('javascript:alert(1)');
    expect(pdf.destinations.sort()).toEqual(['src-1', 'src-2', 'src-4']);
    expect(new Set(pdf.internalLinks)).toEqual(new Set(['src-1', 'src-2', 'src-4']));
  });

  it('prints text outside Latin-1 with the shipped font, and report text stays text', async () => {
    const report = fixtureReport();
    report.question = 'Ποια είναι η επίδραση; Как это работает → ≥ 12%? <script>alert(1)</script>';
    report.sections[1]!.title = 'Рост парка батарей (BT)';
    const pdf = await readPdf(await renderPdf(report));
    const text = compactText(pdf.text);
    expect(text).toContain(compactText(report.question));
    expect(text).toContain(compactText(report.sections[1]!.title));
  });

  it('keeps non-ASCII titles as written: the Title metadata, a source title with an en dash, an accented heading (issue 25)', async () => {
    const report = fixtureReport();
    report.question = 'How large was the fall of Lake Varen in 2015–2024, and what does “drawdown” mean?';
    report.sections[1]!.title = 'Évaporation – the climate’s share';
    const cited = indexCitations(report).citedSources[0]!.source;
    cited.title = 'Lake Varen Water Balance 2015–2024: Technical Report TR-2024-09';
    const pdf = await readPdf(await renderPdf(report));
    expect(pdf.title).toBe(report.question);
    const text = compactText(pdf.text);
    expect(text).toContain(compactText(cited.title));
    expect(text).toContain(compactText(report.sections[1]!.title));
    expect(pdf.text).not.toMatch(/Œ/);
  });

  it('gives the same bytes for the same report', async () => {
    const [a, b] = await Promise.all([renderPdf(fixtureReport()), renderPdf(fixtureReport())]);
    expect(a.equals(b)).toBe(true);
  });

  it('renders nothing from an invalid report', async () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = [];
    await expect(renderPdf(report)).rejects.toThrow(InvalidReportError);
  });
});

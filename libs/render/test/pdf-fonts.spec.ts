import fs from 'node:fs';
import type { ReportJson } from '@dossier/contracts';
import { fixtureReport } from '@dossier/testing';
import { renderPdf } from '../src';
import { pdfFont } from '../src/pdf-fonts';

/** The fixture report with other words: a report the process has not shaped before. */
function otherReport(): ReportJson {
  const report = fixtureReport();
  report.question = 'Wie hoch lag der Pegel des Sees im Frühjahr, gemessen in Zentimetern über Normalnull?';
  for (const s of report.sections) {
    s.title = `Abschnitt ${s.id}: Überblick`;
    for (const p of s.paragraphs)
      for (const sentence of p.sentences) sentence.text = `Quellen nennen ${sentence.text.length} Messpunkte (Δ ≈ 3 %).`;
  }
  return report;
}

/** fontkit's own shaping (the prototype's `layout`), counted while `fn` runs; pdf-fonts calls it for words it has not kept. */
async function shapedDuring(fn: () => Promise<unknown>): Promise<number> {
  const shape = jest.spyOn(Object.getPrototypeOf(pdfFont('regular')) as { layout: (...args: unknown[]) => unknown }, 'layout');
  try {
    await fn();
    return shape.mock.calls.length;
  } finally {
    shape.mockRestore();
  }
}

describe('the PDF fonts, shared by the documents of a process (decision 0147)', () => {
  it('renders a report again to the same bytes without reading a font file or shaping a word', async () => {
    const first = await renderPdf(otherReport());
    const read = jest.spyOn(fs, 'readFileSync');
    try {
      let again: Buffer | undefined;
      expect(await shapedDuring(async () => (again = await renderPdf(otherReport())))).toBe(0);
      expect(again!.equals(first)).toBe(true);
      expect(read.mock.calls.filter(([file]) => String(file).endsWith('.ttf'))).toEqual([]);
    } finally {
      read.mockRestore();
    }
  });

  it('gives the bytes a process that never shaped those words gives', async () => {
    await renderPdf(otherReport());
    await renderPdf(fixtureReport());
    // A module registry of its own: the fonts parsed afresh, no word kept.
    const fresh: Buffer[] = [];
    await jest.isolateModulesAsync(async () => {
      // requireActual inside isolateModules loads from the isolated registry; a dynamic
      // import('../src') would need a file extension under the base config's nodenext.
      const isolated = jest.requireActual<{ renderPdf: typeof renderPdf }>('../src');
      expect(isolated.renderPdf).not.toBe(renderPdf);
      fresh.push(await isolated.renderPdf(fixtureReport()), await isolated.renderPdf(otherReport()));
    });
    expect((await renderPdf(fixtureReport())).equals(fresh[0]!)).toBe(true);
    expect((await renderPdf(otherReport())).equals(fresh[1]!)).toBe(true);
  });

  it('shapes only the words it has not seen', async () => {
    await renderPdf(fixtureReport());
    const report = fixtureReport();
    report.sections[0]!.title = 'Zyxwvut qwertzuiop';
    // The two new words, in the heading and in the PDF outline; a word is shaped with the space after it.
    const shaped = await shapedDuring(() => renderPdf(report));
    expect(shaped).toBeGreaterThan(0);
    expect(shaped).toBeLessThanOrEqual(4);
  });

  it('hands each caller positions of its own: pdfkit scales them in place', () => {
    const font = pdfFont('bold');
    const a = font.layout('Kept');
    const before = JSON.stringify(a.positions);
    for (const p of a.positions as Record<string, number>[]) for (const k of Object.keys(p)) p[k]! *= 1000;
    const b = font.layout('Kept');
    expect(JSON.stringify(b.positions)).toBe(before);
    expect(b.glyphs.map((g) => g.id)).toEqual(a.glyphs.map((g) => g.id));
  });
});

import { InvalidReportError, renderAll, renderHtml, renderJson, renderMarkdown } from '../src';
import { fixtureReport } from '@dossier/testing';

describe('renderAll', () => {
  it('returns the same text files as the individual renderers, and a PDF', async () => {
    const { pdf, ...text } = await renderAll(fixtureReport());
    expect(text).toEqual({
      md: renderMarkdown(fixtureReport()),
      html: renderHtml(fixtureReport()),
      json: renderJson(fixtureReport()),
    });
    expect(text.md).toMatch(/^# Has grid-scale/);
    expect(text.html).toMatch(/^<!DOCTYPE html>/);
    expect(JSON.parse(text.json)).toMatchObject({ runId: 'run_01HZX4K9Q2' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('passes options to both document renderers', async () => {
    const all = await renderAll(fixtureReport(), { evidenceAppendix: false });
    expect(all.md).not.toContain('## Evidence');
    expect(all.html).not.toContain('<h2>Evidence</h2>');
    expect((await renderAll(fixtureReport())).html).toContain('<h2>Evidence</h2>');
  });

  it('renders nothing from an invalid report', async () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = [];
    await expect(renderAll(report)).rejects.toThrow(InvalidReportError);
  });

  it('does not modify the report it is given', async () => {
    const report = fixtureReport();
    await renderAll(report);
    expect(report).toEqual(fixtureReport());
  });
});

import { InvalidReportError, renderAll, renderHtml, renderJson, renderMarkdown } from '../src';
import { fixtureReport } from './fixtures/report.fixture';

describe('renderAll', () => {
  it('returns the same three files as the individual renderers', () => {
    const all = renderAll(fixtureReport());
    expect(all).toEqual({
      md: renderMarkdown(fixtureReport()),
      html: renderHtml(fixtureReport()),
      json: renderJson(fixtureReport()),
    });
    expect(all.md).toMatch(/^# Has grid-scale/);
    expect(all.html).toMatch(/^<!DOCTYPE html>/);
    expect(JSON.parse(all.json)).toMatchObject({ runId: 'run_01HZX4K9Q2' });
  });

  it('passes options to both document renderers', () => {
    const all = renderAll(fixtureReport(), { evidenceAppendix: false });
    expect(all.md).not.toContain('## Evidence');
    expect(all.html).not.toContain('<h2>Evidence</h2>');
    expect(renderAll(fixtureReport()).html).toContain('<h2>Evidence</h2>');
  });

  it('renders nothing from an invalid report', () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = [];
    expect(() => renderAll(report)).toThrow(InvalidReportError);
  });

  it('does not modify the report it is given', () => {
    const report = fixtureReport();
    renderAll(report);
    expect(report).toEqual(fixtureReport());
  });
});

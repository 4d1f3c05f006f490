import { ReportJson } from '@dossier/contracts';
import { InvalidReportError, renderJson } from '../src';
import { fixtureReport } from '@dossier/testing';

/** The same report built in a different order: reversed record insertion and reversed object keys. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

describe('renderJson', () => {
  it('round-trips through the ReportJson contract', () => {
    const report = fixtureReport();
    const json = renderJson(report);
    expect(ReportJson.parse(JSON.parse(json))).toEqual(report);
  });

  it('uses 2-space indent and ends with exactly one newline', () => {
    const json = renderJson(fixtureReport());
    expect(json.startsWith('{\n  "runId": "run_01HZX4K9Q2",\n  "question": ')).toBe(true);
    expect(json.endsWith('}\n')).toBe(true);
    expect(json.endsWith('\n\n')).toBe(false);
  });

  it('writes keys in a stable order whatever order the model was built in', () => {
    const report = fixtureReport();
    const shuffled = reordered(report) as ReportJson;
    expect(Object.keys(shuffled)[0]).toBe('metrics'); // the shuffle really changed the order
    expect(renderJson(shuffled)).toBe(renderJson(report));
    const parsed = JSON.parse(renderJson(shuffled)) as ReportJson;
    expect(Object.keys(parsed)).toEqual(Object.keys(ReportJson.parse(report)));
    expect(Object.keys(parsed.evidence)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8']);
    expect(Object.keys(parsed.sources)).toEqual(['S1', 'S2', 'S3', 'S4']);
  });

  it('sorts ids naturally (E2 before E10)', () => {
    const report = fixtureReport();
    report.evidence['E10'] = { ...report.evidence['E1']!, claimIds: [] };
    const keys = Object.keys((JSON.parse(renderJson(report)) as ReportJson).evidence);
    expect(keys.indexOf('E2')).toBeLessThan(keys.indexOf('E10'));
    expect(keys.at(-1)).toBe('E10');
  });

  it('is deterministic', () => {
    expect(renderJson(fixtureReport())).toBe(renderJson(fixtureReport()));
  });

  it('rejects an uncited body sentence with a typed error naming the sentence', () => {
    const report = fixtureReport();
    report.sections[2]!.paragraphs[0]!.sentences[1]!.evidenceIds = [];
    let error: unknown;
    try {
      renderJson(report);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidReportError);
    const invalid = error as InvalidReportError;
    expect(invalid.code).toBe('report_invalid');
    expect(invalid.retryable).toBe(false);
    expect(invalid.runId).toBe('run_01HZX4K9Q2');
    expect(invalid.issues).toEqual([
      { path: 'sections.2.paragraphs.0.sentences.1', message: 'uncited sentence in body section "Effect on evening peak prices"' },
    ]);
    expect(invalid.message).toContain('sections.2.paragraphs.0.sentences.1: uncited sentence');
  });

  it("accepts a disagreement's closing sentence in our own words, uncited, after two cited sides, and no other (0096)", () => {
    const report = fixtureReport();
    const disagreements = report.sections.find((s) => s.kind === 'contradictions')!;
    const sides = [
      { text: 'One study credits storage with a 12% fall in evening peak prices.', evidenceIds: ['E4'] },
      { text: 'EIA attributes the 2023 decline mainly to cheaper natural gas.', evidenceIds: ['E6'] },
    ];
    disagreements.paragraphs[0]!.sentences = [...sides, { text: 'The two figures cover different periods.', evidenceIds: [] }];
    expect(() => renderJson(report)).not.toThrow();
    disagreements.paragraphs[0]!.sentences = [sides[0]!, { text: 'An uncited side.', evidenceIds: [] }, sides[1]!];
    expect(() => renderJson(report)).toThrow(InvalidReportError);
  });

  it('lists every issue, not just the first', () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = ['E404'];
    report.evidence['E1']!.sourceId = 'S404';
    (report as { extra?: number }).extra = 1;
    const issues = (() => {
      try {
        renderJson(report);
      } catch (e) {
        return (e as InvalidReportError).issues.map((i) => i.message);
      }
      return [];
    })();
    expect(issues).toEqual(['Unrecognized key: "extra"', 'unknown evidence id E404', 'unknown source S404']);
  });

  it('rejects two sources sharing a number', () => {
    const report = fixtureReport();
    report.sources['S3']!.number = 1;
    expect(() => renderJson(report)).toThrow(InvalidReportError);
    expect(() => renderJson(report)).toThrow('sources.S3.number: source number 1 is also used by S1');
  });
});

import { InvalidReportError, indexCitations } from '../src';
import { fixtureReport } from '@dossier/testing';

describe('indexCitations', () => {
  it('lists cited sources by number and cited evidence by id, skipping the uncited', () => {
    const index = indexCitations(fixtureReport());
    expect(index.citedSources.map((s) => [s.sourceId, s.source.number])).toEqual([
      ['S1', 1],
      ['S2', 2],
      ['S4', 4],
    ]);
    expect(index.citedEvidence.map((e) => `${e.evidenceId}:${e.number}`)).toEqual(['E1:1', 'E2:1', 'E3:2', 'E4:4', 'E5:2', 'E6:2', 'E7:4']);
  });

  it('merges repeated evidence ids and excerpts of one source into one citation', () => {
    const index = indexCitations(fixtureReport());
    const citations = index.citationsOf({ text: 'x', evidenceIds: ['E6', 'E2', 'E1', 'E2', 'E5'] });
    expect(citations.map((c) => [c.number, c.excerpts.map((e) => e.evidenceId)])).toEqual([
      [1, ['E2', 'E1']],
      [2, ['E6', 'E5']],
    ]);
  });

  it('fails loudly on a dangling evidence id instead of dropping the citation', () => {
    const report = fixtureReport();
    report.sections[1]!.paragraphs[0]!.sentences[0]!.evidenceIds = ['E404'];
    expect(() => indexCitations(report)).toThrow(InvalidReportError);
  });
});

import type { ReportJson } from '@dossier/contracts';
import { searchEvidence } from '../src';

function report(): ReportJson {
  const source = (n: number) => ({
    number: n,
    url: `https://example.org/${n}`,
    title: `Source ${n}`,
    contentHash: 'h',
    fetchedAt: '2025-01-01T00:00:00Z',
  });
  return {
    runId: 'r',
    question: 'q',
    status: 'completed',
    engine: 'offline',
    createdAt: '2025-01-01T00:00:00Z',
    sections: [],
    evidence: {
      E1: { sourceId: 'S1', excerpt: 'The lake level fell by 4 metres between 2014 and 2024.', start: 0, end: 10, claimIds: ['C1'] },
      E2: { sourceId: 'S2', excerpt: 'Irrigation withdrawals doubled.', start: 0, end: 10, claimIds: ['C2'] },
    },
    claims: {
      C1: { text: 'Lake Varen lost 4 m of water level.', status: 'established', evidenceIds: ['E1'] },
      C2: { text: 'Irrigation grew.', status: 'reported', evidenceIds: ['E2'] },
      C3: { text: 'Level records exist.', status: 'reported', evidenceIds: ['E9'] },
    },
    contradictions: [],
    sources: { S1: source(1), S2: source(2) },
    metrics: { iterations: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0, searches: 1, sourcesFetched: 2 },
  };
}

describe('searchEvidence', () => {
  it('ranks claims by the query words in their text (double) and their excerpts, with the excerpts and sources', () => {
    const hits = searchEvidence(report(), 'water level 2014', 10);
    expect(hits.map((h) => h.claimId)).toEqual(['C1', 'C3']);
    expect(hits[0]!.evidence).toEqual([
      {
        id: 'E1',
        excerpt: 'The lake level fell by 4 metres between 2014 and 2024.',
        source: { number: 1, title: 'Source 1', url: 'https://example.org/1' },
      },
    ]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    // C3 cites an evidence id the report does not hold: the claim is found, the dangling id is not invented.
    expect(hits[1]!.evidence).toEqual([]);
  });

  it('finds words that only the evidence holds, honours the limit, and finds nothing for nothing', () => {
    expect(searchEvidence(report(), 'withdrawals', 10).map((h) => h.claimId)).toEqual(['C2']);
    expect(searchEvidence(report(), 'level', 1)).toHaveLength(1);
    expect(searchEvidence(report(), 'volcano', 10)).toEqual([]);
    expect(searchEvidence(report(), '!!', 10)).toEqual([]);
  });
});

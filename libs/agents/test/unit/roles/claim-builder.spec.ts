import { claimBuilder } from '../../../src/roles';
import { EVIDENCE } from '../../fixtures/role-inputs';

describe('claimBuilder (offline)', () => {
  const { claims } = claimBuilder.offline({ evidence: EVIDENCE });

  it('merges near-duplicate evidence into one claim citing all of it', () => {
    const opened = claims.find((c) => c.statement.startsWith('The Golden Gate Bridge opened'))!;
    expect(opened.evidenceIds).toEqual(['E1', 'E2']);
    expect(opened.status).toBe('established');
    expect(opened.questionId).toBe('Q1');
  });

  it('cites every evidence id exactly once', () => {
    const ids = claims.flatMap((c) => c.evidenceIds);
    expect(ids.sort()).toEqual(EVIDENCE.map((e) => e.id).sort());
  });

  it('marks hedged statements speculative but not dates in May', () => {
    expect(claims.find((c) => c.evidenceIds.includes('E5'))!.status).toBe('speculative');
    expect(claims.find((c) => c.evidenceIds.includes('E1'))!.status).not.toBe('speculative');
  });

  it('marks a single-source claim reported', () => {
    expect(claims.find((c) => c.evidenceIds.includes('E3'))!.status).toBe('reported');
  });

  it('marks contradicting claims contested', () => {
    const metres = claims.find((c) => c.evidenceIds.includes('E4'))!;
    const feet = claims.find((c) => c.evidenceIds.includes('E6'))!;
    expect(metres).not.toBe(feet);
    expect(metres.status).toBe('contested');
    expect(feet.status).toBe('contested');
  });

  it('takes the subject from the top key phrase', () => {
    expect(claims.find((c) => c.evidenceIds.includes('E4'))!.subject).toBe('golden gate bridge');
  });

  it('counts evidence from one source once towards established', () => {
    const sameSource = EVIDENCE.slice(0, 2).map((e) => ({ ...e, sourceId: 'S1' }));
    expect(claimBuilder.offline({ evidence: sameSource }).claims).toMatchObject([{ evidenceIds: ['E1', 'E2'], status: 'reported' }]);
  });

  it('keeps near-identical statements with different figures apart', () => {
    const out = claimBuilder.offline({
      evidence: [
        { id: 'A', excerpt: 'The tower is 330 metres tall.', statement: 'The tower is 330 metres tall.', questionId: null },
        { id: 'B', excerpt: 'The tower is 300 metres tall.', statement: 'The tower is 300 metres tall.', questionId: null },
      ],
    });
    expect(out.claims.map((c) => c.evidenceIds)).toEqual([['A'], ['B']]);
  });

  it('returns no claims for no evidence', () => {
    expect(claimBuilder.offline({ evidence: [] })).toEqual({ claims: [] });
  });
});

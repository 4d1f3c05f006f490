import { counterEvidence } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.counterEvidence;

describe('counterEvidence (offline)', () => {
  it('finds the date contradiction among the candidate pairs only', () => {
    expect(counterEvidence.offline(base).contradictions).toEqual([
      { claimAId: 'C1', claimBId: 'C7', kind: 'date', note: '27 May 1937 vs 1936' },
    ]);
  });

  it('accepts the same length in other units', () => {
    // 4,200 ft = 1,280.2 m: the fixture's metres/feet pair agrees.
    expect(counterEvidence.offline(base).contradictions.some((c) => c.claimBId === 'C6')).toBe(false);
  });

  it('reports a real unit conflict with a concrete note', () => {
    const input = {
      claims: [
        { id: 'A', statement: 'The wall is 6.1 metres high.' },
        { id: 'B', statement: 'The wall is 13.8 feet high.' },
      ],
      candidatePairs: [['A', 'B']] as [string, string][],
    };
    const [found] = counterEvidence.offline(input).contradictions;
    expect(found).toMatchObject({ claimAId: 'A', claimBId: 'B', kind: 'unit' });
    expect(found!.note).toContain('6.1 metres');
  });

  it('skips self-pairs and repeated pairs', () => {
    const input = {
      ...base,
      candidatePairs: [
        ['C1', 'C7'],
        ['C7', 'C1'],
        ['C1', 'C1'],
      ] as [string, string][],
    };
    expect(counterEvidence.offline(input).contradictions).toHaveLength(1);
  });

  it('rejects pairs naming unknown claims', () => {
    const parsed = counterEvidence.input.safeParse({ ...base, candidatePairs: [['C1', 'C99']] });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('unknown claim id C99');
  });
});

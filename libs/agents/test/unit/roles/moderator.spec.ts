import { moderator, WELL_COVERED } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.moderator;

describe('moderator (offline)', () => {
  it('asks follow-ups only for weakly covered questions, weakest first', () => {
    const { followUps } = moderator.offline(base);
    expect(followUps.map((f) => f.parentId)).toEqual(['Q3', 'Q2']);
    expect(followUps[0]!.priority).toBeGreaterThan(followUps[1]!.priority);
  });

  it('asks for basic figures on barely covered questions and for counter-evidence on partly covered ones', () => {
    const { followUps } = moderator.offline({ ...base, iteration: 0 });
    expect(followUps[0]!.text).toBe('What figures are reported for safety record?');
    expect(followUps[1]!.text).toBe('What evidence contradicts the reported claims about construction cost?');
  });

  it('varies the template with the iteration', () => {
    const a = moderator.offline({ ...base, iteration: 0 }).followUps.map((f) => f.text);
    const b = moderator.offline({ ...base, iteration: 1 }).followUps.map((f) => f.text);
    expect(a).not.toEqual(b);
  });

  it('asks nothing when every question is well covered', () => {
    const coverage = base.coverage.map((c) => ({ ...c, score: WELL_COVERED }));
    expect(moderator.offline({ ...base, coverage }).followUps).toEqual([]);
  });

  it('respects maxFollowUps', () => {
    expect(moderator.offline({ ...base, maxFollowUps: 1 }).followUps).toHaveLength(1);
    expect(moderator.offline({ ...base, maxFollowUps: 0 }).followUps).toEqual([]);
  });
});

import { outlineArchitect } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.outlineArchitect;

const STATEMENTS = [
  'Solar panels supplied 5% of national power.',
  'Wind turbines in the north sea doubled output.',
  'Hydro dams hold 40 cubic kilometres of water.',
  'Nuclear plants ran at 90% capacity.',
  'Coal mines employed 12,000 workers.',
  'Gas pipelines leaked methane in 2021.',
  'Battery storage costs fell by half.',
  'Tidal power remains experimental.',
  'Geothermal wells reach 3 km depth.',
  'Biomass boilers burn wood pellets.',
];

function claimsOf(n: number) {
  return STATEMENTS.slice(0, n).map((statement, i) => ({ id: `C${i}`, statement, questionId: null }));
}

describe('outlineArchitect (offline)', () => {
  it('groups claims by question into 3–7 Title Case sections', () => {
    const { sections } = outlineArchitect.offline(base);
    expect(sections.length).toBeGreaterThanOrEqual(3);
    expect(sections.length).toBeLessThanOrEqual(7);
    const construction = sections.find((s) => s.claimIds.includes('C1'))!;
    expect(construction.claimIds).toContain('C5');
    for (const s of sections) expect(s.title).toMatch(/^[A-Z0-9]/);
  });

  it('puts every claim in exactly one section', () => {
    const ids = outlineArchitect.offline(base).sections.flatMap((s) => s.claimIds);
    expect(ids.sort()).toEqual(base.claims.map((c) => c.id).sort());
  });

  it('gives sections distinct titles', () => {
    const titles = outlineArchitect.offline(base).sections.map((s) => s.title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('merges down to at most 7 sections', () => {
    const { sections } = outlineArchitect.offline({ ...base, questions: [], claims: claimsOf(10) });
    expect(sections).toHaveLength(7);
    expect(sections.flatMap((s) => s.claimIds)).toHaveLength(10);
  });

  it('splits up to at least 3 sections when there are enough claims', () => {
    const claims = claimsOf(4).map((c) => ({ ...c, questionId: 'Q1' }));
    const { sections } = outlineArchitect.offline({ ...base, claims });
    expect(sections).toHaveLength(3);
    expect(sections.every((s) => s.claimIds.length > 0)).toBe(true);
  });

  it('makes a section for what the feedback asks about', () => {
    const { sections } = outlineArchitect.offline({ ...base, feedback: 'Add a section on seismic upgrades.' });
    expect(sections[0]!.title).toBe('Seismic Upgrades');
    expect(sections[0]!.claimIds).toEqual(['C4']);
  });

  it('returns one empty overview section without claims', () => {
    expect(outlineArchitect.offline({ ...base, claims: [] }).sections).toEqual([
      { title: 'Golden Gate Bridge', purpose: `Answers: ${base.question}`, claimIds: [] },
    ]);
  });

  it('a model answer that puts a claim in two sections: named for the repair request, kept in the first section only', () => {
    const bad = {
      sections: [
        { title: 'A', purpose: '', claimIds: ['C1'] },
        { title: 'B', purpose: '', claimIds: ['C1', 'C9'] },
      ],
    };
    const input = { question: 'q?', questions: [], claims: [{ id: 'C1', statement: 's', questionId: null }], feedback: null };
    const checked = outlineArchitect.check!(input, bad);
    expect(checked.issues).toEqual(['sections use claim ids that were not given: C9', 'claim C1 is in two sections (again in section 2)']);
    expect(checked.cleaned).toEqual({
      sections: [
        { title: 'A', purpose: '', claimIds: ['C1'] },
        { title: 'B', purpose: '', claimIds: [] },
      ],
    });
    expect(checked.dropped).toBe(2);
  });
});

import { pointersBesideAntecedents } from '../src/outline/pointer-sections';

/*
 * A claim whose excerpt opens with a sentence pointing back stands in the section of the claim whose excerpt it reads
 * on from (decision 0146): lake-varen q09's "The two series count different things; …" was outlined under "Why do two
 * series disagree?" and the sentence it points at under the question's first clause, and the writer left it out.
 */
describe('pointersBesideAntecedents', () => {
  // The anglers' club minutes: two adjacent excerpts of one passage, one space between them.
  const secretary = "The Secretary noted that the authority's own figures (annual rod licences only) show a fall from 1,240 to 610.";
  const pointer = 'The two series count different things; both show a fall of more than half.';
  const evidence = [
    { id: 'e1', snapshotId: 'minutes', excerpt: secretary, start: 100, end: 100 + secretary.length, statement: secretary },
    {
      id: 'e2',
      snapshotId: 'minutes',
      excerpt: pointer,
      start: 101 + secretary.length,
      end: 101 + secretary.length + pointer.length,
      statement: pointer,
    },
    {
      id: 'e3',
      snapshotId: 'bulletin',
      excerpt: 'Licence sales fell in every year since 2015.',
      start: 0,
      end: 44,
      statement: 'Licence sales fell in every year since 2015.',
    },
    {
      id: 'e4',
      snapshotId: 'bulletin',
      excerpt: 'Permits are sold at the harbour kiosk.',
      start: 45,
      end: 83,
      statement: 'Permits are sold at the harbour kiosk.',
    },
  ];
  const claims = [
    { id: 'A', statement: secretary, evidenceIds: ['e1'] },
    { id: 'P', statement: pointer, evidenceIds: ['e2'] },
    { id: 'B', statement: evidence[2]!.statement, evidenceIds: ['e3'] },
    { id: 'C', statement: evidence[3]!.statement, evidenceIds: ['e4'] },
  ];

  it('moves the pointer to the section of the excerpt it reads on from', () => {
    const sections = [
      { title: 'How did the number change?', claimIds: ['A', 'B'] },
      { title: 'Why do two series disagree?', claimIds: ['P', 'C'] },
    ];
    expect(pointersBesideAntecedents(sections, claims, evidence).map((s) => s.claimIds)).toEqual([['A', 'B', 'P'], ['C']]);
    // The sections given are not changed.
    expect(sections[1]!.claimIds).toEqual(['P', 'C']);
  });

  it('leaves a pointer already beside its antecedent, one whose antecedent is not outlined, and a section’s only claim', () => {
    const together = [
      { title: 'One', claimIds: ['A', 'P'] },
      { title: 'Two', claimIds: ['B'] },
    ];
    expect(pointersBesideAntecedents(together, claims, evidence).map((s) => s.claimIds)).toEqual([['A', 'P'], ['B']]);
    const unoutlined = [
      { title: 'One', claimIds: ['B'] },
      { title: 'Two', claimIds: ['P', 'C'] },
    ];
    expect(pointersBesideAntecedents(unoutlined, claims, evidence).map((s) => s.claimIds)).toEqual([['B'], ['P', 'C']]);
    const alone = [
      { title: 'One', claimIds: ['A', 'B'] },
      { title: 'Two', claimIds: ['P'] },
    ];
    expect(pointersBesideAntecedents(alone, claims, evidence).map((s) => s.claimIds)).toEqual([['A', 'B'], ['P']]);
  });

  it('does not move a claim whose excerpt stands on its own, adjacent or not', () => {
    // "Permits are sold …" reads on from "Licence sales fell …" in its source, but points at nothing.
    const sections = [
      { title: 'One', claimIds: ['B', 'A'] },
      { title: 'Two', claimIds: ['C', 'P'] },
    ];
    expect(pointersBesideAntecedents(sections, claims, evidence).map((s) => s.claimIds)).toEqual([['B', 'A', 'P'], ['C']]);
  });
});

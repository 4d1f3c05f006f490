import { claimTargets, sameStatementKey } from '../src/claims/claim-targets';

const claim = (statement: string) => ({ statement });
const targetsOf = (...args: Parameters<typeof claimTargets>) => claimTargets(...args).map((t) => t.target);

describe('claimTargets: which row each claim of an iteration is written to', () => {
  it('a statement repeated within the iteration joins the first claim that made it (spacing, case and Unicode form aside)', () => {
    const targets = targetsOf(
      [],
      [
        claim('Battery mass limits the range of electric ferries.'),
        claim('Charging takes four hours at the quay.'),
        claim('  Battery mass  limits the range of Electric ferries.'),
        claim('Battery mass limits the range of electric ferries.'),
      ],
    );
    expect(targets).toEqual([
      { kind: 'new', first: 0 },
      { kind: 'new', first: 1 },
      { kind: 'new', first: 0 },
      { kind: 'new', first: 0 },
    ]);
  });

  it('a restatement of an earlier iteration’s claim joins it, and so do its repeats', () => {
    const targets = targetsOf(
      [{ id: 'old-1', statement: 'Ferries charge at the quay overnight.' }],
      [
        claim('Ferries charge at the quay overnight.'),
        claim('A new finding about hull design.'),
        claim('ferries charge at the quay overnight.'),
      ],
    );
    expect(targets).toEqual([
      { kind: 'existing', claimId: 'old-1' },
      { kind: 'new', first: 1 },
      { kind: 'existing', claimId: 'old-1' },
    ]);
  });

  it('near-duplicates that differ in a figure stay apart within the iteration (the builder kept them apart for contradictions)', () => {
    expect(
      targetsOf(
        [],
        [
          claim('The Skerry lighthouse tower is 33 metres tall above the rock.'),
          claim('The Skerry lighthouse tower is 38 metres tall above the rock.'),
        ],
      ),
    ).toEqual([
      { kind: 'new', first: 0 },
      { kind: 'new', first: 1 },
    ]);
  });

  it('decides the same way every time for the same input', () => {
    const fresh = ['b claim here', 'a claim here', 'B claim here', 'c', 'A  claim here'].map(claim);
    expect(targetsOf([], fresh)).toEqual(targetsOf([], fresh));
    expect(sameStatementKey('ＡＢＣ  def ')).toBe('abc def');
  });
});

import { groupNearDuplicates } from '@dossier/agents';

/** Where a claim of this iteration goes: a claim of an earlier iteration, or the row of a claim of this one. */
export type ClaimTarget = { kind: 'existing'; claimId: string } | { kind: 'new'; first: number };

/** Statements this close (2-word-shingle Jaccard) restate a claim of an earlier iteration. */
export const RESTATES_EARLIER_CLAIM = 0.8;

/** The statement as compared within one iteration: Unicode, case and spacing do not make a new claim. */
export function sameStatementKey(statement: string): string {
  return statement.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Decides, for each claim the Claim Builder returned this iteration, which row it is written to:
 * - a claim that restates one of an earlier iteration (near-duplicate text) joins that claim;
 * - a claim whose statement equals one returned before it in this iteration joins the first of them
 *   (deterministic: by the builder's order), so one step never writes the same claim text twice.
 * Near-duplicates within the iteration are not merged here: the builder already merged those whose figures
 * and polarity agree, and kept apart those that differ ("330 m" vs "300 m"), which contradictions must see.
 * A claim that is its own `first` is a new row; its duplicates' evidence is linked to it.
 */
export function claimTargets<C extends { statement: string }>(
  existing: readonly { id: string; statement: string }[],
  fresh: readonly C[],
): { claim: C; target: ClaimTarget }[] {
  const groups = groupNearDuplicates(
    [...existing.map((c) => ({ id: `old:${c.id}`, text: c.statement })), ...fresh.map((c, i) => ({ id: `new:${i}`, text: c.statement }))],
    RESTATES_EARLIER_CLAIM,
  );
  const earlier = new Map<number, string>();
  for (const g of groups) {
    const old = g.find((id) => id.startsWith('old:'));
    if (!old) continue;
    for (const id of g) if (id.startsWith('new:')) earlier.set(Number(id.slice(4)), old.slice(4));
  }
  const firstWith = new Map<string, number>();
  return fresh.map((claim, i) => {
    const key = sameStatementKey(claim.statement);
    const first = firstWith.get(key);
    if (first === undefined) firstWith.set(key, i);
    return { claim, target: targetOf(first ?? i) };
  });

  function targetOf(i: number): ClaimTarget {
    const claimId = earlier.get(i);
    return claimId !== undefined ? { kind: 'existing', claimId } : { kind: 'new', first: i };
  }
}

import type { ClaimRow, ContradictionRow } from '@dossier/db';

/** Each claim appears in at most two disagreements, so one contested figure does not fill the section. */
export const MAX_DISAGREEMENTS_PER_CLAIM = 2;

export interface DisagreementPair {
  a: ClaimRow;
  b: ClaimRow;
}

/**
 * The contradictions shown in "Where the sources disagree": both sides known and cited, each claim in at most two,
 * in the repository's order (by content, so equal runs give equal reports).
 */
export function selectDisagreements(contradictions: readonly ContradictionRow[], claims: readonly ClaimRow[]): DisagreementPair[] {
  const byId = new Map(claims.map((c) => [c.id, c]));
  const shown = new Map<string, number>();
  const out: DisagreementPair[] = [];
  for (const c of contradictions) {
    const a = byId.get(c.claimAId);
    const b = byId.get(c.claimBId);
    if (!a || !b || a.evidenceIds.length === 0 || b.evidenceIds.length === 0) continue;
    if ((shown.get(a.id) ?? 0) >= MAX_DISAGREEMENTS_PER_CLAIM || (shown.get(b.id) ?? 0) >= MAX_DISAGREEMENTS_PER_CLAIM) continue;
    shown.set(a.id, (shown.get(a.id) ?? 0) + 1);
    shown.set(b.id, (shown.get(b.id) ?? 0) + 1);
    out.push({ a, b });
  }
  return out;
}

import { pointsBack, splitUnits } from '@dossier/agents';

/** What the rule reads of a claim and of an evidence row. */
interface ClaimLike {
  id: string;
  statement: string;
  evidenceIds: readonly string[];
}
interface EvidenceLike {
  id: string;
  snapshotId: string;
  excerpt: string;
  start: number;
  end: number;
  statement: string;
}
interface SectionLike {
  claimIds: string[];
}

/** The white space that may stand between two excerpts of one passage (a space, a line break). */
const MAX_GAP = 4;

/**
 * A claim whose excerpt opens with a sentence pointing back ("The two series count different things; …", "Together
 * these two factors account for roughly 70% …") is written after the sentence it points at, from the excerpt of its
 * source that ends right before it, and only when that excerpt is the section's (decisions 0112, 0137). The outline
 * placed such claims by their own words, which name little ("the two series"): the claim went to one section and its
 * antecedent's to another, and the writer left the pointer out (lake-varen q09, decision 0146). So a pointer's claim
 * joins the section of the claim holding that excerpt, also when that section is full: it is written as the end of the
 * finding it points at, not as one of its own (lake-varen q09's antecedent stood in a section of 30 claims). It is never
 * a section's last claim moved away. Returns the sections with the moves made (copies of them when there are any).
 */
export function pointersBesideAntecedents<S extends SectionLike>(
  sections: readonly S[],
  claims: readonly ClaimLike[],
  evidence: readonly EvidenceLike[],
): S[] {
  const claimById = new Map(claims.map((c) => [c.id, c]));
  const evidenceById = new Map(evidence.map((e) => [e.id, e]));
  const endingAt = new Map<string, EvidenceLike>();
  for (const e of evidence) endingAt.set(`${e.snapshotId}:${e.end}`, e);
  // The excerpt that ends right before `e` in its source.
  const before = (e: EvidenceLike): EvidenceLike | undefined => {
    for (let gap = 0; gap <= MAX_GAP && gap <= e.start; gap++) {
      const b = endingAt.get(`${e.snapshotId}:${e.start - gap}`);
      if (b !== undefined && b.id !== e.id) return b;
    }
    return undefined;
  };
  const out = sections.map((s) => ({ ...s, claimIds: [...s.claimIds] }));
  const sectionOf = new Map<string, number>();
  out.forEach((s, i) => s.claimIds.forEach((id) => sectionOf.set(id, i)));
  // The outlined claims each excerpt is evidence of.
  const claimsOf = new Map<string, string[]>();
  for (const [id] of sectionOf) for (const e of claimById.get(id)?.evidenceIds ?? []) claimsOf.set(e, [...(claimsOf.get(e) ?? []), id]);
  let moved = false;
  for (const [id, from] of [...sectionOf]) {
    const claim = claimById.get(id);
    if (claim === undefined) continue;
    // The excerpt its statement was taken from (its lead), else its first — as the outline reads it.
    const leadId = claim.evidenceIds.find((x) => evidenceById.get(x)?.statement === claim.statement) ?? claim.evidenceIds[0];
    const lead = leadId === undefined ? undefined : evidenceById.get(leadId);
    if (lead === undefined) continue;
    const first = splitUnits(lead.excerpt)[0];
    if (first === undefined || pointsBack(first.text) === null) continue;
    const antecedent = before(lead);
    if (antecedent === undefined) continue;
    const homes = (claimsOf.get(antecedent.id) ?? []).map((c) => sectionOf.get(c)!);
    if (homes.includes(from)) continue;
    const to = homes[0];
    if (to === undefined || out[from]!.claimIds.length <= 1) continue;
    out[from]!.claimIds = out[from]!.claimIds.filter((c) => c !== id);
    out[to]!.claimIds.push(id);
    sectionOf.set(id, to);
    moved = true;
  }
  return moved ? out : [...sections];
}

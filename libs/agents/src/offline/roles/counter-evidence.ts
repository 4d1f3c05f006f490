import { detectContradiction } from '../nlp/contradiction';
import { CounterEvidenceInput, CounterEvidenceOutput } from '../../roles/counter-evidence';

export function counterEvidenceOffline(input: CounterEvidenceInput): CounterEvidenceOutput {
  const statements = new Map(input.claims.map((c) => [c.id, c.statement]));
  const seen = new Set<string>();
  const contradictions: CounterEvidenceOutput['contradictions'] = [];
  for (const [a, b] of input.candidatePairs) {
    const key = [a, b].sort().join('\u0000');
    if (a === b || seen.has(key)) continue;
    seen.add(key);
    const statementA = statements.get(a);
    const statementB = statements.get(b);
    // The input schema rejects unknown ids; a direct call with one has nothing to compare.
    if (statementA === undefined || statementB === undefined) continue;
    const found = detectContradiction(statementA, statementB);
    if (found) contradictions.push({ claimAId: a, claimBId: b, kind: found.kind, note: found.note.slice(0, 2000) });
  }
  return { contradictions };
}

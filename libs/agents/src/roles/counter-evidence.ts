import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { InputSplit, RoleDefinition, ReferenceCheck } from './role';
import { Id, text } from './schemas';
import { halves } from './split';

export const CounterEvidenceInput = z
  .strictObject({
    claims: z.array(z.strictObject({ id: Id, statement: text(4000) })),
    /** Pairs of claim ids worth comparing, found by the caller (vector search). */
    candidatePairs: z.array(z.tuple([Id, Id])),
  })
  .superRefine((input, ctx) => {
    const ids = new Set(input.claims.map((c) => c.id));
    input.candidatePairs.forEach((pair, i) => {
      for (const id of pair) {
        if (!ids.has(id)) ctx.addIssue({ code: 'custom', path: ['candidatePairs', i], message: `unknown claim id ${id}` });
      }
    });
  });
export type CounterEvidenceInput = z.infer<typeof CounterEvidenceInput>;

export const ContradictionKindSchema = z.enum(['negation', 'number', 'unit', 'date']);
export const FoundContradiction = z.strictObject({ claimAId: Id, claimBId: Id, kind: ContradictionKindSchema, note: z.string().max(2000) });
export const CounterEvidenceOutput = z.strictObject({ contradictions: z.array(FoundContradiction) });
export type CounterEvidenceOutput = z.infer<typeof CounterEvidenceOutput>;

/** Each pair of claims once, in either order: the first finding that names it. */
function firstOfEachPair<T extends { claimAId: string; claimBId: string }>(found: readonly T[]): T[] {
  const seen = new Set<string>();
  return found.filter((c) => {
    const key = [c.claimAId, c.claimBId].sort().join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function check(input: CounterEvidenceInput, output: CounterEvidenceOutput): ReferenceCheck<CounterEvidenceOutput> {
  const known = new Set(input.claims.map((c) => c.id));
  const issues = unknownIdIssues(
    output.contradictions.flatMap((c) => [c.claimAId, c.claimBId]),
    known,
    'contradictions name claim',
  );
  const contradictions = firstOfEachPair(
    output.contradictions.filter((c) => known.has(c.claimAId) && known.has(c.claimBId) && c.claimAId !== c.claimBId),
  );
  if (output.contradictions.some((c) => c.claimAId === c.claimBId)) issues.push('a claim cannot contradict itself');
  return { issues, cleaned: { contradictions }, dropped: output.contradictions.length - contradictions.length };
}

/**
 * The input in two parts: the candidate pairs halved, each part with only the claims its pairs name (in the input's
 * order), so a request too large for a model's window is sent in requests that fit (decisions 0040, 0115). The pairs are
 * judged one by one, so the parts' contradictions together are the whole's; a pair named by both parts' answers once.
 */
function split(input: CounterEvidenceInput): InputSplit<CounterEvidenceInput, CounterEvidenceOutput> | null {
  const parts = halves(input.candidatePairs);
  if (!parts) return null;
  const part = (candidatePairs: [string, string][]): CounterEvidenceInput => {
    const named = new Set(candidatePairs.flat());
    return { claims: input.claims.filter((c) => named.has(c.id)), candidatePairs };
  };
  return {
    parts: [part(parts[0]), part(parts[1])],
    join: ([a, b]) => ({ contradictions: firstOfEachPair([...a.contradictions, ...b.contradictions]) }),
  };
}

export const counterEvidenceDefinition: RoleDefinition<CounterEvidenceInput, CounterEvidenceOutput, 'counterEvidence'> = {
  name: 'counterEvidence',
  temperature: 0,
  check,
  split,
  skipped: () => ({ contradictions: [] }),
  idle: (input) => (input.candidatePairs.length === 0 ? { contradictions: [] } : null),
  input: CounterEvidenceInput,
  output: CounterEvidenceOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Counter-Evidence Agent',
      task: 'For each candidate pair of claims, decide whether the two claims contradict each other, and if so how.',
      rules: [
        'Only claims about the same subject can contradict; different aspects of one subject do not.',
        'kind: negation (one denies what the other asserts), number (different figures in the same unit), unit (figures that disagree after unit conversion), date (different dates for the same event).',
        'Figures within 5% of each other, or equal after unit conversion, agree.',
        'note says concretely what differs, e.g. "4.2 metres vs 6.1 metres".',
        'List only contradicting pairs, by claimAId and claimBId as given.',
      ],
      output: CounterEvidenceOutput,
      data: [
        ['claims', listWithIds(input.claims.map((c) => ({ id: c.id, text: c.statement })))],
        ['candidate pairs', input.candidatePairs.map(([a, b]) => `${a} <> ${b}`).join('\n')],
      ],
    }),
};

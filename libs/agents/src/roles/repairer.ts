import { z } from 'zod';
import { VerificationVerdict } from '@dossier/contracts';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { cleanCitedSentences } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
import { EvidenceRef, Id, distinctIds, text } from './schemas';

/** One sentence that failed verification, with the verifier's finding. */
export const RepairSentence = z.strictObject({
  text: text(4000),
  evidenceIds: z.array(Id),
  finding: z.strictObject({ verdict: VerificationVerdict, note: z.string().max(2000) }),
});
export type RepairSentence = z.infer<typeof RepairSentence>;

/**
 * The failing sentences of one section (or of the frame) in one call, with their evidence listed once: the evidence
 * the sentences cite, and more of the section's that may support a rewrite (decision 0036: no excerpt is sent to the
 * repairer twice in one step).
 */
export const RepairerInput = z
  .strictObject({
    sentences: z.array(RepairSentence),
    evidence: z.array(EvidenceRef),
  })
  .superRefine(distinctIds('evidence'));
export type RepairerInput = z.infer<typeof RepairerInput>;

export const RepairFix = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('rewrite'), text: text(4000), evidenceIds: z.array(Id).min(1) }),
  z.strictObject({ action: z.literal('drop') }),
]);
export type RepairFix = z.infer<typeof RepairFix>;

/** One fix per input sentence, in the same order. */
export const RepairerOutput = z.strictObject({ fixes: z.array(RepairFix) });
export type RepairerOutput = z.infer<typeof RepairerOutput>;

function check(input: RepairerInput, output: RepairerOutput): ReferenceCheck<RepairerOutput> {
  if (output.fixes.length !== input.sentences.length) {
    // A fix per sentence, in order, or none can be trusted: which sentence would a missing one belong to?
    return {
      issues: [`${output.fixes.length} fixes for ${input.sentences.length} sentences: return exactly one fix per sentence, in order`],
      cleaned: null,
      dropped: 0,
    };
  }
  const known = new Set(input.evidence.map((e) => e.id));
  const issues: string[] = [];
  let dropped = 0;
  const fixes = output.fixes.map((fix, i): RepairFix => {
    if (fix.action !== 'rewrite') return fix;
    const cleaned = cleanCitedSentences([fix], known, `rewritten sentence ${i + 1}`);
    issues.push(...cleaned.issues);
    dropped += cleaned.dropped;
    return cleaned.kept[0] ?? { action: 'drop' };
  });
  return { issues, cleaned: { fixes }, dropped };
}

export const repairerDefinition: RoleDefinition<RepairerInput, RepairerOutput, 'repairer'> = {
  name: 'repairer',
  temperature: 0.2,
  input: RepairerInput,
  output: RepairerOutput,
  check,
  idle: (input) => (input.sentences.length === 0 ? { fixes: [] } : null),
  prompt: (input) =>
    buildPrompt({
      persona: 'Repairer',
      task: 'The verifier found each of these report sentences unsupported, contradicted or uncited. Rewrite each so that it says only what the evidence says, or drop it when the evidence cannot support it.',
      rules: [
        "A rewrite keeps the sentence's point but only as far as the evidence supports it; figures, units and dates exactly as in the evidence.",
        'evidenceIds lists every evidence id the rewritten sentence relies on (at least one), from the "evidence" data block.',
        'Drop a sentence when no evidence supports at least half of what it says.',
        'Return exactly one fix per sentence, in order.',
      ],
      output: RepairerOutput,
      data: [
        ['evidence', listWithIds(input.evidence.map((e) => ({ id: e.id, text: e.excerpt })))],
        ...input.sentences.map(
          (s, i) =>
            [
              `sentence ${i + 1}`,
              `${s.text}\nCited: ${s.evidenceIds.join(', ') || '(none)'}\nVerifier (${s.finding.verdict}): ${s.finding.note}`,
            ] as const,
        ),
      ],
      request: `Return ${input.sentences.length} fixes.`,
    }),
};

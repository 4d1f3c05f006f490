import { z } from 'zod';
import { VerificationVerdict } from '@dossier/contracts';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { entails } from '../offline/nlp/entailment';
import { readerSentence } from '../offline/nlp/prose-faults';
import { splitUnits } from '../offline/nlp/sentences';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { cleanCitedSentences } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
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

/** A rewrite must keep at least this much of the sentence's content (entailment score of the original by the candidate). */
export const REWRITE_THRESHOLD = 0.5;

function offlineOne(sentence: RepairSentence, evidence: RepairerInput['evidence']): RepairFix {
  const cited = new Set(sentence.evidenceIds);
  // Cited evidence first, so on equal scores the rewrite keeps the sentence's own sources.
  const ordered = [...evidence.filter((e) => cited.has(e.id)), ...evidence.filter((e) => !cited.has(e.id))];
  let best: { text: string; raw: string; score: number } | null = null;
  for (const e of ordered) {
    for (const unit of splitUnits(e.excerpt)) {
      if (unit.kind !== 'sentence' && unit.kind !== 'list-item') continue;
      // Boilerplate and fragments never become report sentences, not even as a repair (decision 0046).
      const shown = readerSentence(unit.text);
      if (shown === null) continue;
      const score = entails(sentence.text, [shown]).score;
      if (best === null || score > best.score) best = { text: shown, raw: unit.text, score };
    }
  }
  if (best === null || best.score < REWRITE_THRESHOLD) return { action: 'drop' };
  const key = normalizeWhitespace(best.raw).toLowerCase();
  const evidenceIds = ordered.filter((e) => normalizeWhitespace(e.excerpt).toLowerCase().includes(key)).map((e) => e.id);
  return { action: 'rewrite', text: best.text, evidenceIds: [...new Set(evidenceIds)] };
}

function offline(input: RepairerInput): RepairerOutput {
  return { fixes: input.sentences.map((s) => offlineOne(s, input.evidence)) };
}

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

export const repairer: AgentRole<RepairerInput, RepairerOutput, 'repairer'> = {
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
  offline,
};

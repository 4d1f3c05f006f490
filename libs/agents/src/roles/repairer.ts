import { z } from 'zod';
import { VerificationVerdict } from '@dossier/contracts';
import { buildPrompt } from '../prompt/build-prompt';
import { entails } from '../offline/nlp/entailment';
import { splitUnits } from '../offline/nlp/sentences';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { cleanCitedSentences } from './grounding';
import type { AgentRole } from './role';
import { EvidenceRef, Id, text } from './schemas';

export const RepairerInput = z.strictObject({
  sentence: z.strictObject({ text: text(4000), evidenceIds: z.array(Id) }),
  /** The evidence the sentence cites, and any more of the section's evidence that may support a rewrite. */
  evidence: z.array(EvidenceRef),
  finding: z.strictObject({ verdict: VerificationVerdict, note: z.string().max(2000) }),
});
export type RepairerInput = z.infer<typeof RepairerInput>;

export const RepairerOutput = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('rewrite'), text: text(4000), evidenceIds: z.array(Id).min(1) }),
  z.strictObject({ action: z.literal('drop') }),
]);
export type RepairerOutput = z.infer<typeof RepairerOutput>;

/** A rewrite must keep at least this much of the sentence's content (entailment score of the original by the candidate). */
export const REWRITE_THRESHOLD = 0.5;

function offline(input: RepairerInput): RepairerOutput {
  const cited = new Set(input.sentence.evidenceIds);
  // Cited evidence first, so on equal scores the rewrite keeps the sentence's own sources.
  const ordered = [...input.evidence.filter((e) => cited.has(e.id)), ...input.evidence.filter((e) => !cited.has(e.id))];
  let best: { text: string; score: number } | null = null;
  for (const e of ordered) {
    for (const unit of splitUnits(e.excerpt)) {
      if (unit.kind !== 'sentence' && unit.kind !== 'list-item') continue;
      const score = entails(input.sentence.text, [unit.text]).score;
      if (best === null || score > best.score) best = { text: unit.text, score };
    }
  }
  if (best === null || best.score < REWRITE_THRESHOLD) return { action: 'drop' };
  const key = normalizeWhitespace(best.text).toLowerCase();
  const evidenceIds = ordered.filter((e) => normalizeWhitespace(e.excerpt).toLowerCase().includes(key)).map((e) => e.id);
  return { action: 'rewrite', text: best.text, evidenceIds: [...new Set(evidenceIds)] };
}

export const repairer: AgentRole<RepairerInput, RepairerOutput, 'repairer'> = {
  name: 'repairer',
  temperature: 0.2,
  input: RepairerInput,
  output: RepairerOutput,
  check: (input, output) => {
    if (output.action !== 'rewrite') return { issues: [], cleaned: output, dropped: 0 };
    const cleaned = cleanCitedSentences([output], new Set(input.evidence.map((e) => e.id)), 'rewritten sentence');
    return { issues: cleaned.issues, cleaned: cleaned.kept[0] ?? { action: 'drop' }, dropped: cleaned.dropped };
  },
  prompt: (input) =>
    buildPrompt({
      persona: 'Repairer',
      task: 'The verifier found the sentence unsupported, contradicted or uncited (the request says which). Rewrite it so that it says only what the evidence says, or drop it when the evidence cannot support it.',
      rules: [
        "A rewrite keeps the sentence's point but only as far as the evidence supports it; figures, units and dates exactly as in the evidence.",
        'evidenceIds lists every evidence id the rewritten sentence relies on (at least one).',
        'Drop the sentence when no evidence supports at least half of what it says.',
      ],
      output: RepairerOutput,
      data: [
        ['sentence', `${input.sentence.text}\nCited: ${input.sentence.evidenceIds.join(', ') || '(none)'}`],
        ['verifier note', input.finding.note],
        ['evidence', input.evidence.map((e) => `[${e.id}] ${e.excerpt}`).join('\n')],
      ],
      request: `The verifier found the sentence ${input.finding.verdict}. Produce the JSON object now.`,
    }),
  offline,
};

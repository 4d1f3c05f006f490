import { z } from 'zod';
import { VerificationVerdict } from '@dossier/contracts';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import type { RoleDefinition, InputSplit, ReferenceCheck } from './role';
import { halves } from './split';
import { EvidenceRef, Unit, text } from './schemas';

export const VerifierInput = z.strictObject({
  sentences: z.array(z.strictObject({ text: text(4000), evidence: z.array(EvidenceRef) })),
});
export type VerifierInput = z.infer<typeof VerifierInput>;

export const Finding = z.strictObject({ verdict: VerificationVerdict, score: Unit, note: z.string().max(2000) });
/** One finding per input sentence, in the same order. */
export const VerifierOutput = z.strictObject({ findings: z.array(Finding) });
export type VerifierOutput = z.infer<typeof VerifierOutput>;

/** The evidence the sentences cite, each id once, in order of first citation. */
function citedOnce(input: VerifierInput): { id: string; text: string }[] {
  const seen = new Map<string, string>();
  for (const s of input.sentences) for (const e of s.evidence) if (!seen.has(e.id)) seen.set(e.id, e.excerpt);
  return [...seen].map(([id, text]) => ({ id, text }));
}

function check(input: VerifierInput, output: VerifierOutput): ReferenceCheck<VerifierOutput> {
  if (output.findings.length === input.sentences.length) return { issues: [], cleaned: output, dropped: 0 };
  // A finding per sentence, in order, or none can be trusted: which sentence would a missing one belong to? Models that
  // lose count in a long list keep it in a short one: the caller asks again in halves rather than repeating the list.
  return {
    issues: [
      `${output.findings.length} findings for ${input.sentences.length} sentences: return exactly one finding per sentence, in order`,
    ],
    cleaned: null,
    dropped: 0,
    askInParts: input.sentences.length > 1,
  };
}

/** The sentences in two halves; the findings of both, in order. */
function split(input: VerifierInput): InputSplit<VerifierInput, VerifierOutput> | null {
  const parts = halves(input.sentences);
  if (!parts) return null;
  return {
    parts: [{ sentences: parts[0] }, { sentences: parts[1] }],
    join: ([a, b]) => ({ findings: [...a.findings, ...b.findings] }),
  };
}

export const verifierDefinition: RoleDefinition<VerifierInput, VerifierOutput, 'verifier'> = {
  name: 'verifier',
  temperature: 0,
  check,
  split,
  idle: (input) => (input.sentences.length === 0 ? { findings: [] } : null),
  input: VerifierInput,
  output: VerifierOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Verifier',
      task: 'Check each report sentence strictly against the evidence excerpts it cites (by id, from the "evidence" data block), and nothing else. You did not write these sentences; be skeptical.',
      rules: [
        'supported: every fact, figure and date in the sentence is stated by the cited excerpts (unit conversions allowed).',
        'contradicted: a cited excerpt says the opposite or gives a different figure or date.',
        'unsupported: the excerpts do not state it (even if it is true); uncited: the sentence cites no evidence.',
        'score in [0, 1] is the share of the sentence that the excerpts support; note names what is missing or conflicting.',
        'Return exactly one finding per sentence, in order.',
      ],
      output: VerifierOutput,
      // Each excerpt once, however many sentences cite it (decision 0036); the sentences name the ids they cite.
      data: [
        ['evidence', listWithIds(citedOnce(input))],
        ...input.sentences.map(
          (s, i) => [`sentence ${i + 1}`, `${s.text}\n\nCites: ${s.evidence.map((e) => e.id).join(', ') || '(none)'}`] as const,
        ),
      ],
      request: `Return ${input.sentences.length} findings.`,
    }),
};

import { entails } from '../nlp/entailment';
import { VerifierInput, VerifierOutput } from '../../roles/verifier';

export function verifierOffline(input: VerifierInput): VerifierOutput {
  return {
    findings: input.sentences.map((s) => {
      if (s.evidence.length === 0) return { verdict: 'uncited' as const, score: 0, note: 'the sentence cites no evidence' };
      const result = entails(
        s.text,
        s.evidence.map((e) => e.excerpt),
      );
      return { verdict: result.verdict, score: result.score, note: result.note.slice(0, 2000) };
    }),
  };
}

import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { statesStatement } from '../offline/nlp/states-statement';
import { cleanCitedSentences } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
import { CitedSentence, EvidenceRef, Id, distinctIds, text } from './schemas';

/** Contested positions a writer is told to leave out, at most (the run's, most evidence first). */
export const MAX_CONTESTED = 200;

export const SectionWriterInput = z
  .strictObject({
    section: z.strictObject({ title: text(400), purpose: z.string().max(2000) }),
    claims: z.array(z.strictObject({ id: Id, statement: text(4000), evidenceIds: z.array(Id).min(1) })),
    /**
     * Each excerpt, and where it stands: its source (snapshot) and its offset there. The offline writer groups a
     * section's sentences by source and keeps them in the source's own order, so a paragraph reads as a passage.
     */
    evidence: z.array(
      EvidenceRef.extend({
        sourceId: Id.optional(),
        start: z.int().min(0).optional(),
        /**
         * Who wrote the excerpt's source, in our words ("the growers' association"; `documentVoice`): a first-person
         * sentence is attributed to it, and left out when the source names no author (decision 0102).
         */
        voice: z.string().max(200).optional(),
      }),
    ),
    /**
     * Long sections are drafted in parts (OpenAI engine): which part this is and a summary of what the parts
     * before wrote, so the model continues rather than repeats, and the last part closes the section.
     */
    continuation: z.strictObject({ part: z.int().min(1), parts: z.int().min(2), writtenSoFar: z.string().max(40_000) }).optional(),
    /** A reviewer's feedback on the section (publish gate rejected): the redraft follows it. */
    feedback: z.string().max(4000).optional(),
    /**
     * The positions the sources disagree on (both sides of the run's contradictions): "Where the sources disagree"
     * presents them; no sentence of a section may state one (decision 0037).
     */
    contested: z.array(text(4000)).max(MAX_CONTESTED).optional(),
  })
  .superRefine(distinctIds('evidence'));
export type SectionWriterInput = z.infer<typeof SectionWriterInput>;

export const SectionWriterOutput = z.strictObject({
  paragraphs: z.array(z.strictObject({ sentences: z.array(CitedSentence).min(1) })),
});
export type SectionWriterOutput = z.infer<typeof SectionWriterOutput>;

export function statesContested(input: SectionWriterInput, sentence: string): boolean {
  return (input.contested ?? []).some((c) => statesStatement(sentence, c));
}

function check(input: SectionWriterInput, output: SectionWriterOutput): ReferenceCheck<SectionWriterOutput> {
  const known = new Set(input.evidence.map((e) => e.id));
  const issues: string[] = [];
  let dropped = 0;
  let n = 0;
  const paragraphs = output.paragraphs.flatMap((p) => {
    const cleaned = cleanCitedSentences(p.sentences, known, 'sentence');
    issues.push(...cleaned.issues.map((i) => i.replace(/^sentence \d+/, () => `sentence ${++n}`)));
    dropped += cleaned.dropped;
    const kept = cleaned.kept.filter((s) => {
      if (!statesContested(input, s.text)) return true;
      issues.push(`a sentence states a contested position, which belongs to "Where the sources disagree": ${s.text.slice(0, 120)}`);
      dropped++;
      return false;
    });
    return kept.length > 0 ? [{ sentences: kept }] : [];
  });
  if (output.paragraphs.length === 0 && input.claims.length > 0) {
    issues.push(`no sentence was written, though ${input.claims.length} claims with evidence were given`);
  }
  return { issues, cleaned: paragraphs.length > 0 ? { paragraphs } : null, dropped };
}

function continuationRules(input: SectionWriterInput): string[] {
  const c = input.continuation;
  if (!c) return [];
  return [
    `This is part ${c.part} of ${c.parts} of the section; the "written so far" data block summarises the parts before. Do not repeat anything in it: continue from where it ends.`,
    c.part === c.parts
      ? 'This is the last part: end with a sentence that closes the section (cited like every other sentence).'
      : 'More parts follow: do not close the section yet.',
  ];
}

export const sectionWriterDefinition: RoleDefinition<SectionWriterInput, SectionWriterOutput, 'sectionWriter'> = {
  name: 'sectionWriter',
  temperature: 0.4,
  input: SectionWriterInput,
  output: SectionWriterOutput,
  check,
  idle: (input) => (input.claims.length === 0 ? { paragraphs: [] } : null),
  prompt: (input) =>
    buildPrompt({
      persona: 'Section Writer',
      task: 'Write the report section from the claims and their evidence: clear paragraphs of two to four sentences, every sentence cited.',
      rules: [
        'Every sentence states only what its cited evidence says and lists the evidence ids it relies on in evidenceIds; a sentence without evidence is not allowed.',
        'When several evidence items support the same statement, cite all of them on that sentence.',
        'Use the claims in the order given; keep figures, units and dates exactly as in the evidence.',
        'No introduction or conclusion: the section body only, and no URLs.',
        ...(input.contested?.length
          ? [
              'Do not state any of the contested positions (see "contested positions"): the report presents them, both sides together, in a section of their own.',
            ]
          : []),
      ],
      callRules: [
        ...continuationRules(input),
        ...(input.feedback ? ['A reviewer rejected the previous draft (see "reviewer feedback"): follow it, within the rules.'] : []),
      ],
      output: SectionWriterOutput,
      data: [
        ['section', `${input.section.title}\n${input.section.purpose}`],
        ['claims', listWithIds(input.claims.map((c) => ({ id: c.id, text: `${c.statement} (evidence: ${c.evidenceIds.join(', ')})` })))],
        ['evidence', listWithIds(input.evidence.map((e) => ({ id: e.id, text: e.excerpt })))],
        ...(input.continuation ? [['written so far', input.continuation.writtenSoFar || '(nothing yet)'] as const] : []),
        ...(input.feedback ? [['reviewer feedback', input.feedback] as const] : []),
        ...(input.contested?.length ? [['contested positions', input.contested.join('\n')] as const] : []),
      ],
    }),
};

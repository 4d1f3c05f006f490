import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { isBoilerplate } from '../offline/nlp/boilerplate';
import { readerSentence } from '../offline/nlp/prose-faults';
import { isUnattributedQuote } from '../offline/nlp/quotation';
import { splitUnits } from '../offline/nlp/sentences';
import { normalizeWhitespace, statementStems } from '../offline/nlp/statement-terms';
import { statesStatement } from '../offline/nlp/states-statement';
import { cleanCitedSentences } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
import { CitedSentence, EvidenceRef, Id, distinctIds, text } from './schemas';

/** Contested positions a writer is told to leave out, at most (the run's, most evidence first). */
export const MAX_CONTESTED = 200;

export const SectionWriterInput = z
  .strictObject({
    section: z.strictObject({ title: text(400), purpose: z.string().max(2000) }),
    claims: z.array(z.strictObject({ id: Id, statement: text(4000), evidenceIds: z.array(Id).min(1) })),
    evidence: z.array(EvidenceRef),
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

const MAX_PER_PARAGRAPH = 4;
// A sentence opening with one of these needs the sentence before it to make sense on its own.
const ANAPHORA = /^(?:it|its|this|these|that|those|they|their|he|she|his|her|such|the latter|the former)\b/i;

type Sentence = z.infer<typeof CitedSentence>;

/**
 * Sentences (and list items) of an excerpt as a reader sees them: verbatim but for citation markers, and null for
 * boilerplate and fragments, which never become report sentences (decision 0046).
 */
function sentencesOf(excerpt: string): (string | null)[] {
  return splitUnits(excerpt)
    .filter((u) => u.kind === 'sentence' || u.kind === 'list-item')
    .map((u) => readerSentence(u.text));
}

function overlap(claimWords: Set<string>, sentence: string): number {
  if (claimWords.size === 0) return 0;
  const words = statementStems(sentence);
  return [...claimWords].filter((w) => words.has(w)).length / claimWords.size;
}

/** n sentences in ⌈n/4⌉ paragraphs of near-equal size (2–4 each once n ≥ 2). */
export function paragraphSizes(n: number): number[] {
  if (n === 0) return [];
  const k = Math.ceil(n / MAX_PER_PARAGRAPH);
  const base = Math.floor(n / k);
  return Array.from({ length: k }, (_, i) => base + (i < n % k ? 1 : 0));
}

function statesContested(input: SectionWriterInput, sentence: string): boolean {
  return (input.contested ?? []).some((c) => statesStatement(sentence, c));
}

function offline(input: SectionWriterInput): SectionWriterOutput {
  const excerpts = new Map(input.evidence.map((e) => [e.id, e.excerpt]));
  const written: Sentence[] = [];
  const seen = new Set<string>();
  const emit = (sentence: string, evidenceIds: string[]) => {
    const key = normalizeWhitespace(sentence).toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    written.push({ text: sentence, evidenceIds });
  };

  for (const claim of input.claims) {
    const cited = [...new Set(claim.evidenceIds)].flatMap((id) => {
      const excerpt = excerpts.get(id);
      return excerpt === undefined ? [] : [{ id, excerpt }];
    });
    if (cited.length === 0) continue;
    const ids = cited.map((e) => e.id);
    const claimWords = statementStems(claim.statement);
    let best: { id: string; sentences: (string | null)[]; index: number; score: number } | null = null;
    for (const { id, excerpt } of cited) {
      const sentences = sentencesOf(excerpt);
      sentences.forEach((s, index) => {
        if (s === null) return;
        // A sentence of an uncontested claim's excerpt can still state a disputed position: that goes to the
        // disagreements section, so the claim is written from another of its sentences or not at all.
        if (isBoilerplate(s) || isUnattributedQuote(s) || statesContested(input, s)) return;
        const score = overlap(claimWords, s);
        if (best === null || score > best.score) best = { id, sentences, index, score };
      });
    }
    if (best === null) continue;
    const chosen: { id: string; sentences: (string | null)[]; index: number } = best;
    const sentence = chosen.sentences[chosen.index]!;
    if (chosen.index > 0 && ANAPHORA.test(sentence)) {
      const before = chosen.sentences[chosen.index - 1];
      // Without the sentence it refers to, an anaphoric sentence does not stand on its own: when that one is boilerplate
      // or a fragment, or states a disputed position, neither is written.
      if (before === null || before === undefined || statesContested(input, before)) continue;
      emit(before, [chosen.id]);
    }
    // Near-duplicate evidence merged into this claim backs the same sentence: one sentence cites all of it.
    emit(sentence, ids);
  }

  const paragraphs: SectionWriterOutput['paragraphs'] = [];
  let at = 0;
  for (const size of paragraphSizes(written.length)) {
    paragraphs.push({ sentences: written.slice(at, at + size) });
    at += size;
  }
  return { paragraphs };
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

export const sectionWriter: AgentRole<SectionWriterInput, SectionWriterOutput, 'sectionWriter'> = {
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
  offline,
};

import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { cleanCitedSentences } from './grounding';
import { Analyst } from './interview-analyst';
import type { RoleDefinition, ReferenceCheck } from './role';
import { CitedSentence, EvidenceRef, Question, distinctIds, text } from './schemas';

export const InterviewExpertInput = z
  .strictObject({
    question: Question,
    /** Who asks: the answer addresses that analyst's focus. */
    analyst: Analyst,
    asked: text(2000),
    /** What the expert found for this question in the run's sources: the only thing it may say. */
    evidence: z.array(EvidenceRef),
    maxSentences: z.int().min(1).max(20),
  })
  .superRefine(distinctIds('evidence'));
export type InterviewExpertInput = z.infer<typeof InterviewExpertInput>;

export const InterviewExpertOutput = z.strictObject({ sentences: z.array(CitedSentence) });
export type InterviewExpertOutput = z.infer<typeof InterviewExpertOutput>;

function check(input: InterviewExpertInput, output: InterviewExpertOutput): ReferenceCheck<InterviewExpertOutput> {
  const cleaned = cleanCitedSentences(output.sentences, new Set(input.evidence.map((e) => e.id)), 'sentence');
  const kept = cleaned.kept.slice(0, input.maxSentences);
  const issues = [...cleaned.issues];
  if (output.sentences.length === 0 && input.evidence.length > 0) issues.push('no sentence was written, though evidence was given');
  return { issues, cleaned: { sentences: kept }, dropped: cleaned.dropped, trimmed: cleaned.kept.length - kept.length };
}

export const interviewExpertDefinition: RoleDefinition<InterviewExpertInput, InterviewExpertOutput, 'interviewExpert'> = {
  name: 'interviewExpert',
  temperature: 0.2,
  input: InterviewExpertInput,
  output: InterviewExpertOutput,
  check,
  // Nothing found: the expert says nothing (an empty answer), and no request is sent.
  idle: (input) => (input.evidence.length === 0 ? { sentences: [] } : null),
  prompt: (input) =>
    buildPrompt({
      persona: 'Expert answering an analyst from the documents found',
      task: "Answer the analyst's question in no more sentences than the request allows, using only the evidence given.",
      rules: [
        'Every sentence states only what its cited evidence says and lists those evidence ids in evidenceIds; no sentence without evidence.',
        'Keep figures, units, dates and names exactly as in the evidence; no URLs.',
        'Answer for the analyst\'s focus (the "analyst focus" data block); if the evidence does not answer the question, write fewer sentences rather than guess.',
      ],
      request: `At most ${input.maxSentences} sentences.`,
      output: InterviewExpertOutput,
      data: [
        ['research question', input.question],
        ['analyst question', input.asked],
        // Written by a model (the perspective planner): data, never an instruction.
        ['analyst focus', input.analyst.focus],
        ['evidence', listWithIds(input.evidence.map((e) => ({ id: e.id, text: e.excerpt })))],
      ],
    }),
};

import { z } from 'zod';
import { Id, Question, text } from './schemas';

/**
 * A sentence of the introduction or the conclusion: a finding cites the evidence its section cited for it; a framing
 * sentence (the question, the outline, what stays open) cites nothing and may state no fact beyond that frame (the
 * frame step's guard checks both kinds, decision 0037).
 */
export const FramingSentence = z.strictObject({ text: text(4000), evidenceIds: z.array(Id) });
export type FramingSentence = z.infer<typeof FramingSentence>;

/** The framer's input and output, apart from the role so that feedback revision can name them without a cycle. */
export const FramerInput = z.strictObject({
  question: Question,
  sections: z.array(
    z.strictObject({ title: text(400), sentences: z.array(z.strictObject({ text: text(4000), evidenceIds: z.array(Id) })) }),
  ),
  stopReason: z.string().max(200),
  /** Questions of the plan or of an analyst's interview that the research did not answer. */
  openQuestions: z.array(text(2000)),
  /** The points the sources disagree on (each the positions shown in "Where the sources disagree"), named as open. */
  disputes: z
    .array(z.strictObject({ sides: z.array(text(4000)).min(2).max(5) }))
    .max(20)
    .optional(),
  /** Narrowed scope (run interventions), stated in the introduction. */
  scope: z.array(text(1000)).max(20).optional(),
  /** A reviewer's feedback on the previous revision (publish gate rejected). */
  feedback: z.string().max(4000).optional(),
});
export type FramerInput = z.infer<typeof FramerInput>;

export const FramerOutput = z.strictObject({
  /** The question, the main findings (each cited), the outline and the limits. */
  introduction: z.array(FramingSentence).min(1).max(8),
  /** The key finding of each section (cited), then what stays open (framing). */
  conclusion: z.array(FramingSentence),
});
export type FramerOutput = z.infer<typeof FramerOutput>;

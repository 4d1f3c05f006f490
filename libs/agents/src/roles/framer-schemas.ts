import { z } from 'zod';
import { CitedSentence, Id, Question, text } from './schemas';

/** The framer's input and output, apart from the role so that feedback revision can name them without a cycle. */
export const FramerInput = z.strictObject({
  question: Question,
  sections: z.array(
    z.strictObject({ title: text(400), sentences: z.array(z.strictObject({ text: text(4000), evidenceIds: z.array(Id) })) }),
  ),
  stopReason: z.string().max(200),
  openQuestions: z.array(text(2000)),
  /** Narrowed scope (run interventions), stated in the introduction. */
  scope: z.array(text(1000)).max(20).optional(),
  /** A reviewer's feedback on the previous revision (publish gate rejected). */
  feedback: z.string().max(4000).optional(),
});
export type FramerInput = z.infer<typeof FramerInput>;

export const FramerOutput = z.strictObject({
  /** Plain framing sentences: no facts, so no citations. */
  introduction: z
    .array(z.strictObject({ text: text(4000), evidenceIds: z.array(Id).max(0) }))
    .min(1)
    .max(4),
  conclusion: z.array(CitedSentence),
});
export type FramerOutput = z.infer<typeof FramerOutput>;

import { z } from 'zod';

/** An expert's answer in one interview turn, as stored (`interview_turns.answer`): sentences citing evidence fragment ids. */
export const InterviewAnswer = z.array(z.strictObject({ text: z.string().min(1), evidenceIds: z.array(z.uuid()).min(1) }));
export type InterviewAnswer = z.infer<typeof InterviewAnswer>;

import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A model's answer to one request as llm_calls keeps it (column `answer`): everything the engine reads from a
 * reply, so a reused answer takes exactly the path the original did (valid, repaired, cut at the cap, refused).
 */
export const RecordedAnswer = z.object({
  content: z.string(),
  model: z.string(),
  tokensIn: z.int().min(0),
  tokensOut: z.int().min(0),
  costUsd: z.number().min(0),
  finishReason: z.string().nullable(),
  refusal: z.string().nullable(),
});
export type RecordedAnswer = z.infer<typeof RecordedAnswer>;

/** Identifies a request by everything that decides its answer: the body sent to the model. */
export function requestHash(body: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

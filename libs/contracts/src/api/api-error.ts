import { z } from 'zod';

/** Every error the gateway returns has this body, with the matching 4xx/5xx status. */
export const ApiErrorBody = z.strictObject({
  /** Stable machine code, e.g. `validation_failed`, `not_found`, `policy_violation`. */
  error: z.string(),
  message: z.string(),
  details: z.unknown(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

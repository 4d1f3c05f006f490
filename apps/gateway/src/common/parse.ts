import type { z } from 'zod';
import { ValidationError } from '@dossier/errors';

/** Where a value came from, for the error message. */
export type Part = 'body' | 'query' | 'path' | 'header';

/** Validates untrusted input with a zod schema; every issue is listed in the 400's details. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, part: Part): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message, code: i.code }));
  throw new ValidationError(`Invalid request ${part}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, {
    details: { part, issues },
  });
}

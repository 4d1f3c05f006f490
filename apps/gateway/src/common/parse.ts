import type { z } from 'zod';
import { ValidationError } from '@dossier/errors';
import { clip } from './clip';

/** Where a value came from, for the error message. */
export type Part = 'body' | 'query' | 'path' | 'header';

/**
 * What a 400 echoes is bounded, whatever the input: a body with 200,000 unknown keys is one issue naming the
 * first few keys and the count, not 5 MB of key names; at most this many issues are listed, each cut short.
 */
export const MAX_LISTED_ISSUES = 20;
export const MAX_LISTED_KEYS = 10;
const MAX_ISSUE_CHARS = 300;
const MAX_PATH_CHARS = 200;

interface Issue {
  path: string;
  message: string;
  code: string;
  keys?: string[];
  keyCount?: number;
}

function issueOf(i: z.core.$ZodIssue): Issue {
  const path = clip(i.path.map(String).join('.'), MAX_PATH_CHARS);
  if (i.code === 'unrecognized_keys') {
    const keys = i.keys.slice(0, MAX_LISTED_KEYS).map((k) => clip(k, 60));
    const more = i.keys.length > keys.length ? ` and ${i.keys.length - keys.length} more` : '';
    const message = `Unrecognized key${i.keys.length === 1 ? '' : 's'}: ${keys.map((k) => JSON.stringify(k)).join(', ')}${more}`;
    return { path, message, code: i.code, keys, keyCount: i.keys.length };
  }
  return { path, message: clip(i.message, MAX_ISSUE_CHARS), code: i.code };
}

/** Validates untrusted input with a zod schema; the 400's details list the issues (bounded, see above). */
export function parse<S extends z.ZodType>(schema: S, value: unknown, part: Part): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const all = result.error.issues;
  const issues = all.slice(0, MAX_LISTED_ISSUES).map(issueOf);
  const shown = issues
    .slice(0, 5)
    .map((i) => `${i.path || '(root)'}: ${i.message}`)
    .join('; ');
  const more = all.length > 5 ? `; and ${all.length - 5} more issue${all.length - 5 === 1 ? '' : 's'}` : '';
  throw new ValidationError(`Invalid request ${part}: ${shown}${more}`, {
    details: { part, issueCount: all.length, truncated: all.length > issues.length, issues },
  });
}

import { z } from 'zod';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text Postgres can store: no NUL character (refused in `text` and `jsonb`) and no unpaired UTF-16
 * surrogate (a JSON body may carry `"\ud800"`; `jsonb` refuses the escape, and UTF-8 has no encoding for it).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

export const STORABLE_TEXT_MESSAGE = 'must not contain a NUL character or an unpaired UTF-16 surrogate';

/**
 * A free-text field of the API (and of anything else stored as text): `z.string()` that refuses what Postgres
 * cannot store, so such input is a 400 naming the field instead of a database error. Chain `.trim()`, `.min()`,
 * `.max()`, `.regex()` after it. Every plain string of an API input schema is one of these (a test walks them).
 */
export function safeText() {
  return z.string().refine(isStorableText, { message: STORABLE_TEXT_MESSAGE });
}

/** Whether a zod string schema carries the `safeText` check (for the test that walks every API input schema). */
export function hasSafeTextCheck(schema: z.ZodString): boolean {
  const checks = (schema._zod.def.checks ?? []) as { _zod: { def: { check?: string; fn?: unknown } } }[];
  return checks.some((c) => c._zod.def.check === 'custom' && c._zod.def.fn === isStorableText);
}

import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { RunOptions, type CreateRunBody } from '@dossier/contracts';

/** JSON with object keys sorted at every level: one text per value, whatever order the client wrote the keys in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a create-run request asks for, as a hash stored with its Idempotency-Key: the validated body (question
 * trimmed, every option with its default filled in), canonical JSON, SHA-256. Two requests that mean the same run
 * (key order, spacing, a default spelled out) hash alike; any other difference is a different request (409).
 * The tenant's policy is applied after, so a policy change between a request and its retry is not a conflict.
 */
export function runRequestHash(body: z.output<typeof CreateRunBody>): string {
  const canonical = canonicalJson({ question: body.question, options: body.options ?? RunOptions.parse({}) });
  return createHash('sha256').update(canonical).digest('hex');
}

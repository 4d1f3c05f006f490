import { z } from 'zod';

// Keywords strict structured outputs refuse or ignore on some providers; zod validates them after the reply anyway.
const DROP = new Set([
  '$schema',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'format',
  'pattern',
  'default',
]);

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (DROP.has(k)) continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, strictify(s)]))
        : strictify(v);
  }
  if (out['type'] === 'object' && out['properties']) {
    // Strict mode: every property listed as required, no others allowed.
    out['required'] = Object.keys(out['properties'] as Record<string, unknown>);
    out['additionalProperties'] = false;
  }
  return out;
}

/** The role's output schema as a JSON Schema that strict structured-output modes accept. */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return strictify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' })) as Record<string, unknown>;
}

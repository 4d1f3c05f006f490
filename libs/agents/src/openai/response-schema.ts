import { z } from 'zod';

// Keywords strict structured outputs refuse on some providers; zod validates them after the reply anyway.
const LIMITS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'];
const ALWAYS_DROP = ['$schema', 'format', 'pattern', 'default'];

function strictify(node: unknown, drop: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => strictify(n, drop));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (drop.has(k)) continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, strictify(s, drop)]))
        : strictify(v, drop);
  }
  if (out['type'] === 'object' && out['properties']) {
    // Strict mode: every property listed as required, no others allowed.
    out['required'] = Object.keys(out['properties'] as Record<string, unknown>);
    out['additionalProperties'] = false;
  }
  return out;
}

/**
 * The role's output schema as a JSON Schema that strict structured-output modes accept. With `limits`, the hard and
 * soft limits (lengths, list sizes, ranges) stay in it, for endpoints that enforce them while decoding; endpoints that
 * refuse them get the schema without (the engine steps down on their 400, decision 0019).
 */
export function strictJsonSchema(schema: z.ZodType, options: { limits?: boolean } = {}): Record<string, unknown> {
  const drop = new Set(options.limits ? ALWAYS_DROP : [...ALWAYS_DROP, ...LIMITS]);
  return strictify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }), drop) as Record<
    string,
    unknown
  >;
}

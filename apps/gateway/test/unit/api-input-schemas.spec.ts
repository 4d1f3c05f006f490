import type { z } from 'zod';
import { hasSafeTextCheck, IdempotencyKey, RUN_OPTION_LIMITS, RunOptions, TenantPolicy } from '@dossier/contracts';
import { API_ROUTES } from '../../src/docs/api-routes';

interface Leaf {
  path: string;
  schema: z.ZodType;
}

type Def = {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  checks?: { _zod: { def: { check: string; value?: unknown } } }[];
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every string and number a schema accepts, with where it sits. */
function leaves(schema: z.ZodType, path = '', seen = new Set<z.ZodType>()): Leaf[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  switch (def.type) {
    case 'string':
    case 'number':
      return [{ path, schema }];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => leaves(v, at(k), seen));
    case 'array':
      return leaves(def.element!, at('0'), seen);
    case 'tuple':
      return (def.items ?? []).flatMap((v, i) => leaves(v, at(i), seen));
    case 'union':
      return (def.options ?? []).flatMap((o) => leaves(o, path, seen));
    case 'intersection':
      return [...leaves(def.left!, path, seen), ...leaves(def.right!, path, seen)];
    case 'record':
      return [...leaves(def.keyType!, at('(key)'), seen), ...leaves(def.valueType!, at('(value)'), seen)];
    case 'pipe':
      return [...leaves(def.in!, path, seen), ...leaves(def.out!, path, seen)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return leaves(def.innerType!, path, seen);
    case 'enum':
    case 'literal':
    case 'boolean':
    case 'unknown':
    case 'any':
    case 'transform':
      return [];
    default:
      throw new Error(`the walker does not know zod type ${def.type} at ${path || '(root)'}`);
  }
}

function upperBound(schema: z.ZodType): number | undefined {
  const bounds = (defOf(schema).checks ?? [])
    .filter((c) => c._zod.def.check === 'less_than' && typeof c._zod.def.value === 'number')
    .map((c) => c._zod.def.value as number);
  return bounds.length > 0 ? Math.min(...bounds) : undefined;
}

const INPUTS: [string, z.ZodType][] = [
  ...API_ROUTES.flatMap((r) => [
    ...(r.body ? [[`${r.method} ${r.path} body`, r.body] as [string, z.ZodType]] : []),
    ...(r.query ? [[`${r.method} ${r.path} query`, r.query] as [string, z.ZodType]] : []),
    ...(r.paramSchema ? [[`${r.method} ${r.path} path`, r.paramSchema] as [string, z.ZodType]] : []),
  ]),
  ['Idempotency-Key header', IdempotencyKey],
  ['tenant policy (dossier admin)', TenantPolicy],
];

describe('every API input schema (security review: NUL bytes, lone surrogates, unbounded numbers)', () => {
  it.each(INPUTS)('%s: each free-text string refuses what Postgres cannot store; each number has a maximum', (_name, schema) => {
    const found = leaves(schema);
    for (const { path, schema: leaf } of found) {
      const def = defOf(leaf);
      if (def.type === 'string' && def.format === undefined) {
        expect({ path, safeText: hasSafeTextCheck(leaf as z.ZodString) }).toEqual({ path, safeText: true });
        expect({ path, nul: leaf.safeParse('a\u0000b').success, surrogate: leaf.safeParse('a\ud800b').success }).toEqual({
          path,
          nul: false,
          surrogate: false,
        });
      }
      if (def.type === 'number') {
        const max = upperBound(leaf);
        expect({ path, bounded: max !== undefined && max < Number.MAX_SAFE_INTEGER }).toEqual({ path, bounded: true });
      }
    }
  });

  it('the walk sees the fields (the checks above are not vacuous)', () => {
    const paths = INPUTS.flatMap(([name, schema]) => leaves(schema).map((l) => `${name}: ${l.path}`));
    expect(paths).toEqual(
      expect.arrayContaining([
        'post /v1/runs body: question',
        'post /v1/runs body: options.budgets.wallTimeMs',
        'post /v1/runs body: options.gateTimeoutMs',
        'post /v1/runs body: options.collection',
        'post /v1/approvals/{id} body: feedback',
        'post /v1/runs/{id}/interventions body: scope',
        'post /v1/runs/{id}/cancel body: reason',
        'post /v1/collections/{id}/documents body: content',
        'get /v1/runs query: cursor',
        'get /v1/sources/{id} path: id',
      ]),
    );
  });

  it('the documented maxima are what the run options accept, and a deadline at each stays a valid date', () => {
    const atMax = RunOptions.parse({
      budgets: { tokens: RUN_OPTION_LIMITS.tokens, costUsd: RUN_OPTION_LIMITS.costUsd, wallTimeMs: RUN_OPTION_LIMITS.wallTimeMs },
      gateTimeoutMs: RUN_OPTION_LIMITS.gateTimeoutMs,
      perspectives: RUN_OPTION_LIMITS.perspectives,
      maxIterations: RUN_OPTION_LIMITS.maxIterations,
    });
    expect(Number.isNaN(new Date(Date.now() + atMax.budgets.wallTimeMs!).getTime())).toBe(false);
    expect(Number.isNaN(new Date(Date.now() + atMax.gateTimeoutMs).getTime())).toBe(false);
    for (const options of [
      { budgets: { wallTimeMs: Number.MAX_SAFE_INTEGER } },
      { gateTimeoutMs: Number.MAX_SAFE_INTEGER },
      { budgets: { tokens: RUN_OPTION_LIMITS.tokens + 1 } },
      { budgets: { costUsd: Infinity } },
    ]) {
      expect(RunOptions.safeParse(options).success).toBe(false);
    }
  });
});

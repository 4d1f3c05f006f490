import { z } from 'zod';
import type { LocalRepair } from './parse-output';

/*
 * A model's JSON brought into the role's schema where that cannot change what it says (decision 0019): enum values in
 * the wrong case or spelling ("Established", "NEGATION", "high risk"), keys the schema does not have, null where a
 * list belongs, numbers written as text, NUL characters (which no Postgres column holds). Soft limits are enforced here too, by trimming with a warning rather than
 * failing the run: strings over their maximum length are cut at a word, lists over their maximum size are cut,
 * numbers outside their range are clamped, fractions in integer fields rounded. Limits without which an answer is
 * wrong (required fields, minimum sizes, ids) are left for validation and the repair request.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};

export interface Conformed {
  value: unknown;
  repairs: LocalRepair[];
  /** Paths of the values cut or clamped to a soft limit. */
  trimmed: string[];
}

const schemas = new WeakMap<z.ZodType, JsonSchema>();

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let json = schemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as JsonSchema;
    schemas.set(schema, json);
  }
  return json;
}

/** "High Risk", "high-risk" and "HIGH_RISK" are one spelling. */
function spelling(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function types(node: JsonSchema): string[] {
  if (node.type === undefined) return [];
  return Array.isArray(node.type) ? node.type : [node.type];
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
}

/** Cut at a word boundary at most `max` characters in. */
export function trimToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '');
}

class Conformer {
  readonly repairs = new Set<LocalRepair>();
  readonly trimmed: string[] = [];

  walk(node: JsonSchema, value: unknown, path: string): unknown {
    const options = node.anyOf ?? node.oneOf;
    if (options) return this.walk(this.choose(options, value), value, path);
    if (node.allOf?.length === 1) return this.walk(node.allOf[0]!, value, path);
    const allowed = types(node);
    if (value === null && allowed.includes('array') && !allowed.includes('null')) {
      this.repairs.add('null_array');
      return [];
    }
    if (node.enum || node.const !== undefined) return this.enumValue(node, value);
    if (typeof value === 'string' && (allowed.includes('number') || allowed.includes('integer')) && !allowed.includes('string')) {
      const n = Number(value.trim());
      if (value.trim() !== '' && Number.isFinite(n)) {
        this.repairs.add('number_text');
        return this.number(node, n, path);
      }
      return value;
    }
    if (typeof value === 'number') return this.number(node, value, path);
    if (typeof value === 'string') {
      // Postgres text and jsonb cannot hold NUL: a model that emits one must not cause a database error.
      if (value.includes('\u0000')) {
        this.repairs.add('control_chars');
        return this.walk(node, value.replaceAll('\u0000', ''), path);
      }
      if (node.maxLength !== undefined && value.length > node.maxLength) {
        this.trimmed.push(path);
        return trimToLength(value, node.maxLength);
      }
      return value;
    }
    if (Array.isArray(value)) return this.array(node, value, path);
    if (value !== null && typeof value === 'object') return this.object(node, value as Record<string, unknown>, path);
    return value;
  }

  private choose(options: JsonSchema[], value: unknown): JsonSchema {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      // A discriminated union: the option whose constant field the value names, in any spelling.
      const record = value as Record<string, unknown>;
      const tagged = options.find((o) =>
        Object.entries(o.properties ?? {}).some(
          ([key, p]) => typeof p.const === 'string' && typeof record[key] === 'string' && spelling(record[key]) === spelling(p.const),
        ),
      );
      if (tagged) return tagged;
    }
    const kind = kindOf(value);
    return (
      options.find((o) => types(o).includes(kind) || (kind === 'integer' && types(o).includes('number'))) ??
      options.find((o) => o.anyOf || o.oneOf || o.enum || o.const !== undefined) ??
      options[0]!
    );
  }

  private enumValue(node: JsonSchema, value: unknown): unknown {
    if (typeof value !== 'string') return value;
    const allowed = node.enum ?? [node.const];
    if (allowed.includes(value)) return value;
    const match = allowed.find((a) => typeof a === 'string' && spelling(a) === spelling(value));
    if (match === undefined) return value;
    this.repairs.add('enum_case');
    return match;
  }

  private number(node: JsonSchema, value: number, path: string): number {
    let n = value;
    if (types(node).includes('integer') && !types(node).includes('number') && !Number.isInteger(n)) n = Math.round(n);
    if (node.minimum !== undefined && n < node.minimum) n = node.minimum;
    if (node.maximum !== undefined && n > node.maximum) n = node.maximum;
    if (n !== value) this.trimmed.push(path);
    return n;
  }

  private array(node: JsonSchema, value: unknown[], path: string): unknown[] {
    let items = value;
    if (node.maxItems !== undefined && items.length > node.maxItems) {
      this.trimmed.push(path);
      items = items.slice(0, node.maxItems);
    }
    if (node.prefixItems) return items.map((v, i) => (node.prefixItems![i] ? this.walk(node.prefixItems![i]!, v, `${path}.${i}`) : v));
    return node.items ? items.map((v, i) => this.walk(node.items!, v, `${path}.${i}`)) : items;
  }

  private object(node: JsonSchema, value: Record<string, unknown>, path: string): Record<string, unknown> {
    if (!node.properties && node.additionalProperties === undefined) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const prop = node.properties?.[key];
      const at = path ? `${path}.${key}` : key;
      if (prop) out[key] = this.walk(prop, v, at);
      else if (node.additionalProperties === false) this.repairs.add('extra_keys');
      else if (typeof node.additionalProperties === 'object') out[key] = this.walk(node.additionalProperties, v, at);
      else out[key] = v;
    }
    return out;
  }
}

/** The value brought into the schema where that is safe, with what was mended and what was trimmed. */
export function conformToSchema(schema: z.ZodType, value: unknown): Conformed {
  const c = new Conformer();
  const out = c.walk(jsonSchemaOf(schema), value, '');
  return { value: out, repairs: [...c.repairs], trimmed: c.trimmed };
}

/*
 * Prompts cite short ids (E12, C3, Q2), not database uuids: a uuid costs about 20 tokens, models garble them, and
 * a short id is what the writer is told to cite. Every uuid in a role's input gets an alias by what it names (the
 * nearest key: evidence → E, claim → C, question → Q, source → S, section → T, perspective → P, other → X); strings of
 * the reply that equal an alias are mapped back. An alias the input never had stays as it is, so the role's checks
 * see it as unknown.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIXES: readonly [RegExp, string][] = [
  [/evidence/i, 'E'],
  [/claim/i, 'C'],
  [/question/i, 'Q'],
  [/source|snapshot/i, 'S'],
  [/section/i, 'T'],
  [/perspective/i, 'P'],
];

export interface ShortIds<I> {
  input: I;
  restore(value: unknown): unknown;
}

export function shortenIds<I>(input: I): ShortIds<I> {
  const alias = new Map<string, string>();
  const original = new Map<string, string>();
  const counters = new Map<string, number>();

  const aliasOf = (uuid: string, keys: readonly string[]): string => {
    const known = alias.get(uuid);
    if (known) return known;
    const prefix =
      [...keys].reverse().reduce<string | null>((found, k) => found ?? PREFIXES.find(([re]) => re.test(k))?.[1] ?? null, null) ?? 'X';
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    const short = `${prefix}${n}`;
    alias.set(uuid, short);
    original.set(short, uuid);
    return short;
  };

  const walk = (value: unknown, keys: readonly string[]): unknown => {
    if (typeof value === 'string') return UUID.test(value) ? aliasOf(value, keys) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, keys));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, [...keys, k])]));
    }
    return value;
  };
  const shortened = walk(input, []) as I;

  const restore = (value: unknown): unknown => {
    if (typeof value === 'string') return original.get(value) ?? value;
    if (Array.isArray(value)) return value.map(restore);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, restore(v)]));
    return value;
  };
  return { input: shortened, restore };
}

import { z } from 'zod';
import { DATA_POLICY, dataBlock } from './data-block';

export interface Prompt {
  system: string;
  user: string;
}

export interface PromptSpec {
  /** Who the model is, e.g. "Research Director". */
  persona: string;
  /** What to do, in one or two sentences. */
  task: string;
  /**
   * Standing rules. persona, task and rules make the system prompt, which must read the same on every call of a role
   * (decision 0036): a provider's prompt cache then holds it across calls, runs and tenants. Anything that depends on
   * the call's input goes in `callRules`, `request` or the data.
   */
  rules: readonly string[];
  output: z.ZodType;
  /** Trusted instructions for this call only (counts, the turn, a narrowed scope): in the user message, after the data. */
  callRules?: readonly string[];
  /** Untrusted material, each in its own data block: [label, text]. */
  data: readonly (readonly [string, string])[];
  /** A trusted closing line for the user message (parameters such as counts). */
  request?: string;
}

const CITATION_RULE = 'Cite evidence only by its id in square brackets, like [E12]; never write a URL.';

/**
 * A system prompt with the role, rules, data policy and JSON schema of the output, the same on every call of the role
 * (the stable part, first, so provider prompt caches hit); a user prompt of data blocks, this call's rules and the request.
 */
export function buildPrompt(spec: PromptSpec): Prompt {
  const system = [
    `You are the ${spec.persona} of Dossier, a deep-research platform that writes reports in which every sentence is traceable to an exact passage of a source.`,
    spec.task,
    'Rules:',
    ...spec.rules.map((r) => `- ${r}`),
    `- ${CITATION_RULE}`,
    ...schemaText(spec.output).limits,
    `- ${DATA_POLICY}`,
    'Reply with a single JSON object and nothing else. It must validate against this JSON Schema:',
    schemaText(spec.output).json,
  ].join('\n');
  const callRules = spec.callRules?.length ? [['For this call:', ...spec.callRules.map((r) => `- ${r}`)].join('\n')] : [];
  const user = [
    ...spec.data.map(([label, text]) => dataBlock(label, text)),
    ...callRules,
    spec.request ?? 'Produce the JSON object now.',
  ].join('\n\n');
  return { system, user };
}

/** Items with ids as lines "[id] text", for a data block. */
export function listWithIds(items: readonly { id: string; text: string }[]): string {
  return items.map((i) => `[${i.id}] ${i.text.replace(/\s+/g, ' ').trim()}`).join('\n');
}

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

/**
 * The output's limits in words, beside the schema (decision 0019): models read a rule more reliably than a keyword
 * deep in a JSON Schema, and endpoints that refuse limit keywords in the response format never see them otherwise.
 */
export function describeLimits(output: z.ZodType): string[] {
  const out = new Map<string, string>();
  const walk = (node: SchemaNode | undefined, path: string): void => {
    if (!node) return;
    for (const option of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(option, path);
    // Ids are copied from the data, never written: their length is no rule worth reading.
    if (node.maxLength !== undefined && node.maxLength < 20_000 && !/Ids?(\[\])?$/.test(path))
      out.set(path, `${path}: at most ${node.maxLength} characters`);
    if (node.maxItems !== undefined || (node.minItems ?? 0) > 0) {
      const range =
        node.maxItems === undefined
          ? `at least ${node.minItems} item(s)`
          : node.maxItems === 0
            ? 'empty'
            : `${node.minItems ?? 0} to ${node.maxItems} items`;
      out.set(path, `${path}: ${range}`);
    }
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, path ? `${path}.${key}` : key);
    walk(node.items, `${path}[]`);
  };
  walk(z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as SchemaNode, '');
  return [...out.values()];
}

/**
 * What the system prompt says of each output schema, made once per schema (a role's is a module constant): two JSON
 * Schema conversions per prompt were most of building one, and a call builds its prompt on every step (decision 0143).
 * Zod schemas are immutable, so the text cannot go stale; a schema made per call is only a miss.
 */
const schemaTexts = new WeakMap<z.ZodType, { limits: string[]; json: string }>();

function schemaText(output: z.ZodType): { limits: string[]; json: string } {
  let text = schemaTexts.get(output);
  if (!text) {
    text = { limits: limitsRule(output), json: JSON.stringify(z.toJSONSchema(output)) };
    schemaTexts.set(output, text);
  }
  return text;
}

function limitsRule(output: z.ZodType): string[] {
  const limits = describeLimits(output);
  return limits.length > 0 ? [`- Limits (longer text is cut): ${limits.join('; ')}.`] : [];
}

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
  rules: readonly string[];
  output: z.ZodType;
  /** Untrusted material, each in its own data block: [label, text]. */
  data: readonly (readonly [string, string])[];
  /** A trusted closing line for the user message (parameters such as counts). */
  request?: string;
}

const CITATION_RULE = 'Cite evidence only by its id in square brackets, like [E12]; never write a URL.';

/** A system prompt with the role, rules, data policy and JSON schema of the output; a user prompt of data blocks. */
export function buildPrompt(spec: PromptSpec): Prompt {
  const system = [
    `You are the ${spec.persona} of Dossier, a deep-research platform that writes reports in which every sentence is traceable to an exact passage of a source.`,
    spec.task,
    'Rules:',
    ...spec.rules.map((r) => `- ${r}`),
    `- ${CITATION_RULE}`,
    `- ${DATA_POLICY}`,
    'Reply with a single JSON object and nothing else. It must validate against this JSON Schema:',
    JSON.stringify(z.toJSONSchema(spec.output)),
  ].join('\n');
  const user = [...spec.data.map(([label, text]) => dataBlock(label, text)), spec.request ?? 'Produce the JSON object now.'].join('\n\n');
  return { system, user };
}

/** Items with ids as lines "[id] text", for a data block. */
export function listWithIds(items: readonly { id: string; text: string }[]): string {
  return items.map((i) => `[${i.id}] ${i.text.replace(/\s+/g, ' ').trim()}`).join('\n');
}

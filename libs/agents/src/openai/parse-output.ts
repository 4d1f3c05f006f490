import type { LocalRepairKind } from '@dossier/contracts';

/*
 * Reasoning models (DeepSeek-R1, Qwen3, QwQ, many local servers) put their chain of thought in the content,
 * in <think> or similar tags. It never reaches a report, a parser or the database.
 */
const REASONING_TAGS = ['think', 'thinking', 'reasoning', 'reflection', 'thought'];
const CLOSED = new RegExp(`<(${REASONING_TAGS.join('|')})\\b[^>]*>[\\s\\S]*?</\\1\\s*>`, 'gi');
// A server that strips the opening tag leaves "…reasoning</think>answer"; an unterminated block runs to the end.
const UNOPENED = new RegExp(`^[\\s\\S]*?</(?:${REASONING_TAGS.join('|')})\\s*>`, 'i');
const UNCLOSED = new RegExp(`<(?:${REASONING_TAGS.join('|')})\\b[^>]*>[\\s\\S]*$`, 'i');

export function stripReasoning(text: string): string {
  return text.replace(CLOSED, '').replace(UNOPENED, '').replace(UNCLOSED, '').trim();
}

/**
 * What was mended in a reply before it could be used, without asking the model again (decision 0019): a Markdown
 * fence, prose before the JSON, text after it, JSON cut short; and, against the role's schema (conform-to-schema),
 * enum values in the wrong case, keys the schema does not have, null where a list belongs, NUL characters.
 */
export type LocalRepair = LocalRepairKind;

export type ParsedJson = { ok: true; value: unknown; repairs: LocalRepair[] } | { ok: false; error: string };

/** Where the object that starts at `start` ends (index after its closing brace), or null when the text ends first. */
function objectEnd(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}

/**
 * The brackets left open at the end of `text`, whether it ends inside a string, and where commas outside strings are
 * (those between the items of a list first: cutting there drops only a half-written item).
 */
function openAtEnd(text: string): { stack: string[]; inString: boolean; commas: number[] } {
  const stack: string[] = [];
  const inList: number[] = [];
  const inObject: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') (stack.at(-1) === ']' ? inList : inObject).push(i);
  }
  return { stack, inString, commas: [...inList.reverse(), ...inObject.reverse()] };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function close(text: string): string {
  const { stack } = openAtEnd(text);
  return text.replace(/[\s,:]+$/, '') + stack.reverse().join('');
}

/**
 * JSON cut short (an output cap, a proxy, a dropped connection): the longest prefix that ends after a whole element,
 * closed. Items cut in half are dropped rather than kept half-written; only when no whole element precedes the cut
 * is an unfinished string closed where it stops.
 */
export function closeTruncatedJson(text: string): unknown {
  const { commas, inString } = openAtEnd(text);
  for (const at of commas.slice(0, 200)) {
    const parsed = tryParse(close(text.slice(0, at)));
    if (parsed.ok) return parsed.value;
  }
  const whole = tryParse(close(inString ? `${text}"` : text));
  return whole.ok ? whole.value : undefined;
}

/**
 * The JSON object of a reply: reasoning stripped, Markdown fences removed, prose before and text after the object
 * cut away, and JSON that stops short closed after its last whole element. Each mend is reported.
 */
export function parseJsonReply(content: string): ParsedJson {
  const repairs: LocalRepair[] = [];
  let text = stripReasoning(content);
  const fenced = /```[a-zA-Z]*[ \t]*\n?([\s\S]*?)(?:```|$)/.exec(text);
  if (fenced && fenced[1]!.includes('{')) {
    text = fenced[1]!.trim();
    repairs.push('fence');
  }
  const start = text.indexOf('{');
  if (start < 0) return { ok: false, error: 'the reply contains no JSON object' };
  if (text.slice(0, start).trim().length > 0) repairs.push('prose');
  const end = objectEnd(text, start);
  if (end !== null) {
    if (text.slice(end).trim().length > 0) repairs.push('trailing_text');
    const parsed = tryParse(text.slice(start, end));
    if (parsed.ok) return { ok: true, value: parsed.value, repairs };
    try {
      JSON.parse(text.slice(start, end));
    } catch (err) {
      return { ok: false, error: `the reply is not valid JSON (${(err as Error).message})` };
    }
  }
  const closed = closeTruncatedJson(text.slice(start));
  if (closed !== undefined && closed !== null && typeof closed === 'object' && !Array.isArray(closed)) {
    return { ok: true, value: closed, repairs: [...repairs, 'truncated'] };
  }
  return { ok: false, error: 'the reply is not valid JSON (it stops before the object is complete)' };
}

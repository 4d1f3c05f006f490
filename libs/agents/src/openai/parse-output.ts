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

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The JSON object of a reply: reasoning stripped, Markdown fences removed, and the outermost object taken
 * when the model wrapped it in prose (common with JSON mode off).
 */
export function parseJsonReply(content: string): ParsedJson {
  let text = stripReasoning(content);
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  if (fenced) text = fenced[1]!.trim();
  if (!text.startsWith('{')) {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return { ok: false, error: 'the reply contains no JSON object' };
    text = text.slice(start, end + 1);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: `the reply is not valid JSON (${(err as Error).message})` };
  }
}

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

let encoding: Encoding | undefined;

// A source or a model's answer may hold "<|endoftext|>": it is text to count, not a control token (the encoder's
// default throws on it, which failed the step that counted such a source).
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Tokens of a text in o200k_base (the encoding of the GPT-4o/4.1/5 families). Other models tokenize a little
 * differently; budgets and batches only need a close, deterministic count, and the provider's own usage
 * figures are what gets recorded.
 *
 * gpt-tokenizer, not js-tiktoken (decision 0130): the same counts, a quarter of the CPU to load the encoding in every
 * service process and a tenth per prompt, so a step's own work does not grow with its prompt's length.
 */
export function countTokens(text: string): number {
  // Loaded on first use (the OpenAI engine's constructor, at boot), not with this library: importing the encoding costs
  // ~0.3 s of CPU and ~75 MB, which an offline process (the demo, the CLI, most tests) never needs.
  encoding ??= require('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return encoding.encode(text, AS_TEXT).length;
}

/** Chat-format overhead per message (role and separators), as OpenAI documents for its chat models. */
export const TOKENS_PER_MESSAGE = 3;

/** The reply's own priming tokens, once per request. */
const TOKENS_PER_REPLY = 3;

/** Prompt tokens of a list of chat messages. */
export function countMessageTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((n, m) => n + TOKENS_PER_MESSAGE + countTokens(m.content), TOKENS_PER_REPLY);
}

/**
 * System prompts counted so far, by their text. A role's system prompt reads the same on every call (decision 0036:
 * persona, rules and output schema; what varies goes in the user message), and it is a third to all of a short
 * prompt's tokens: counted once per process, not twice per call (decision 0143). Bounded in case a caller's system
 * prompts do vary.
 */
const systemTokens = new Map<string, number>();
const MAX_SYSTEM_PROMPTS = 256;

/** countMessageTokens of a system and a user message, the system prompt's count taken from those counted before. */
export function countChatTokens(system: string, user: string): number {
  let s = systemTokens.get(system);
  if (s === undefined) {
    s = countTokens(system);
    if (systemTokens.size >= MAX_SYSTEM_PROMPTS) systemTokens.clear();
    systemTokens.set(system, s);
  }
  return TOKENS_PER_REPLY + TOKENS_PER_MESSAGE + s + TOKENS_PER_MESSAGE + countTokens(user);
}

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

/** Prompt tokens of a list of chat messages. */
export function countMessageTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((n, m) => n + TOKENS_PER_MESSAGE + countTokens(m.content), 3);
}

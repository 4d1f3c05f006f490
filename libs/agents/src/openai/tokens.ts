import { getEncoding, type Tiktoken } from 'js-tiktoken';

let encoder: Tiktoken | undefined;

/**
 * Tokens of a text in o200k_base (the encoding of the GPT-4o/4.1/5 families). Other models tokenize a little
 * differently; budgets and batches only need a close, deterministic count, and the provider's own usage
 * figures are what gets recorded.
 */
export function countTokens(text: string): number {
  encoder ??= getEncoding('o200k_base');
  return encoder.encode(text).length;
}

/** Chat-format overhead per message (role and separators), as OpenAI documents for its chat models. */
export const TOKENS_PER_MESSAGE = 3;

/** Prompt tokens of a list of chat messages. */
export function countMessageTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((n, m) => n + TOKENS_PER_MESSAGE + countTokens(m.content), 3);
}

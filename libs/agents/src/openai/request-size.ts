import type { ErrorVerdict } from './request-errors';

/*
 * Every request sized to its model's window (decision 0040): max_tokens = min(role cap, context − prompt − margin),
 * and material that leaves too little room for an answer is split or refused before anything is sent.
 */

/** An answer shorter than this is no answer (a verifier finding for one sentence takes ~60 tokens, a director ~80). */
export const MIN_OUTPUT_TOKENS = 256;
/** Room kept for the answer when a prompt is fitted: a quarter of the window, at most the role's cap. */
const OUTPUT_SHARE = 0.25;

/**
 * Tokens kept free beside prompt and answer. Our count is o200k_base; a server with another tokenizer counts the same
 * prompt differently (Llama's and Mistral's count a few percent more), and the chat template adds its own tokens.
 */
export function contextMargin(promptTokens: number): number {
  return 64 + Math.ceil(promptTokens * 0.05);
}

/** The max_tokens of a request of `promptTokens`, or null when fewer than MIN_OUTPUT_TOKENS would be left. */
export function outputRoom(promptTokens: number, contextTokens: number, cap: number): number | null {
  const room = Math.min(cap, contextTokens - promptTokens - contextMargin(promptTokens));
  return room >= Math.min(cap, MIN_OUTPUT_TOKENS) ? room : null;
}

/** The answer's planned room: a quarter of the window, at least the minimum, at most the role's cap. */
function plannedOutput(contextTokens: number, cap: number): number {
  return Math.min(cap, Math.max(MIN_OUTPUT_TOKENS, Math.floor(contextTokens * OUTPUT_SHARE)));
}

/** Tokens of data (evidence, a section's claims) one request of a role may carry: 60% of what the answer leaves. */
export function dataBudget(contextTokens: number, cap: number): number {
  return Math.max(200, Math.floor((contextTokens - plannedOutput(contextTokens, cap)) * 0.6));
}

/** True when a prompt leaves the answer its planned room: a quarter of the window (at least the minimum, at most the cap). */
export function promptFits(promptTokens: number, contextTokens: number, cap: number): boolean {
  return promptTokens + contextMargin(promptTokens) + plannedOutput(contextTokens, cap) <= contextTokens;
}

/** What a server said when it refused a request for its size: its window and its own count of the prompt, when it says. */
export interface ContextOverflow {
  contextTokens: number | undefined;
  promptTokens: number | undefined;
}

const OVERFLOW =
  /context[ _-]?(?:length|size|window)|maximum context|prompt is too long|input is too long|too many (?:input )?tokens|exceeds? the (?:available )?context|reduce the length|(?:max_tokens|max_completion_tokens).{0,40}too large/i;

/**
 * A 400 (or 413) saying the request does not fit the model's window, in the words of OpenAI, vLLM, llama.cpp, LM
 * Studio and Anthropic-compatible proxies ("maximum context length is 8192 tokens. However, you requested 16976 tokens
 * (592 in the messages, 16384 in the completion)"; "request (9000 tokens) exceeds the available context size"); null
 * for any other error.
 */
export function contextOverflow(verdict: ErrorVerdict): ContextOverflow | null {
  if ((verdict.status !== 400 && verdict.status !== 413) || !OVERFLOW.test(verdict.message)) return null;
  const m = verdict.message;
  const number = (re: RegExp): number | undefined => {
    const hit = re.exec(m)?.[1];
    return hit === undefined ? undefined : Number(hit.replace(/,/g, ''));
  };
  const contextTokens =
    number(/maximum context length is ([\d,]+)/i) ??
    number(/context (?:length|size|window)(?: is| of)?:? \(?([\d,]+)/i) ??
    number(/n_ctx\D{0,8}([\d,]+)/i) ??
    number(/tokens? > ([\d,]+) maximum/i) ??
    number(/\d+ > ([\d,]+) - \d+/);
  const promptTokens =
    number(/([\d,]+) in the messages/i) ??
    number(/request has ([\d,]+) input tokens/i) ??
    number(/prompt (?:is too long|has|contains):? ([\d,]+) tokens/i) ??
    number(/\d+ > \d+ - ([\d,]+)/) ??
    number(/n_prompt_tokens\D{0,8}([\d,]+)/i);
  return { contextTokens, promptTokens };
}

/**
 * Context windows of hosted models whose size does not depend on how they are served (decision 0040). Open-weight
 * families (llama, qwen, mistral…) are left out on purpose: vLLM, llama.cpp and Ollama serve them with whatever context
 * the operator started them with (Ollama's default is a few thousand tokens), so their name says nothing about the
 * window. Everything unlisted and unset gets DEFAULT_CONTEXT_TOKENS.
 */
const KNOWN_CONTEXTS: readonly (readonly [RegExp, number])[] = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^gpt-4-turbo/, 128_000],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o[134](-|$)/, 200_000],
  [/^claude-/, 200_000],
  [/^gemini-/, 1_048_576],
];

/** The window assumed for a model nobody described: what small local deployments commonly serve. */
export const DEFAULT_CONTEXT_TOKENS = 8_192;

/** The known context of a model name (`openai/gpt-4o-mini` and `gpt-4o-mini-2024-07-18` alike), or undefined. */
export function knownContextTokens(model: string): number | undefined {
  const name = model.trim().toLowerCase().split('/').at(-1) ?? '';
  return KNOWN_CONTEXTS.find(([pattern]) => pattern.test(name))?.[1];
}

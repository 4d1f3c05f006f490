import { z } from 'zod';

// The openai engine's settings (libs/agents' openai-config parses them when a run first asks for the engine, so a
// worker without them still serves offline runs). Unset and blank are the same: compose files pass `VAR=` through.

/** `''` and whitespace are unset. */
export const blankIsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = () => z.preprocess(blankIsUnset, z.string().trim().optional());
const num = (schema: z.ZodNumber, fallback: number) => z.preprocess(blankIsUnset, z.coerce.number().pipe(schema).default(fallback));
const flag = () =>
  z.preprocess(blankIsUnset, z.enum(['true', 'false', '1', '0']).default('false')).transform((v) => v === 'true' || v === '1');

export const StructuredOutputMode = z.enum(['json_schema', 'json_object', 'text']);
export type StructuredOutputMode = z.infer<typeof StructuredOutputMode>;

/** The smallest context window a setting may name: below it not even a role's instructions fit (decision 0040). */
export const MIN_CONTEXT_SETTING = 256;

export const ModelEnv = z.object({
  OPENAI_BASE_URL: optionalText().describe('Base URL of the OpenAI-compatible endpoint (required by openai runs)'),
  OPENAI_API_KEY: optionalText().describe('API key of the endpoint; local servers (Ollama, vLLM) need none'),
  OPENAI_MODEL: optionalText().describe('Model of every role without its own OPENAI_MODEL_<ROLE> (required by openai runs)'),
  OPENAI_TIMEOUT_MS: num(z.number().int().min(100).max(600_000), 120_000).describe('Timeout of one model request'),
  OPENAI_MAX_RETRIES: num(z.number().int().min(0).max(10), 4).describe(
    'Retries of a request on 429, 5xx and timeouts (Retry-After honoured)',
  ),
  OPENAI_RETRY_BASE_MS: num(z.number().int().min(0).max(60_000), 1_000).describe('First retry delay of a model request (doubling)'),
  OPENAI_RETRY_MAX_MS: num(z.number().int().min(0).max(600_000), 60_000).describe('Longest retry delay of a model request'),
  OPENAI_RATE_PER_SECOND: num(z.number().positive().max(10_000), 5).describe(
    'Model requests per second per endpoint, shared by every worker through Redis',
  ),
  OPENAI_RATE_MARGIN_MS: num(z.number().int().min(0).max(10_000), 100).describe(
    "Each second of the rate stretched by this much, so network jitter does not push a provider's window over",
  ),
  OPENAI_MAX_OUTPUT_TOKENS: num(z.number().int().min(16).max(1_000_000), 16_384).describe(
    'Output cap of a request (per role: OPENAI_MAX_OUTPUT_TOKENS_<ROLE>)',
  ),
  OPENAI_CONTEXT_TOKENS: z
    .preprocess(blankIsUnset, z.coerce.number().int().min(MIN_CONTEXT_SETTING).max(10_000_000).optional())
    .describe("The model's context window; unset: the known window of hosted models, else 8192 (decision 0040)"),
  OPENAI_STRUCTURED_OUTPUT: z
    .preprocess(blankIsUnset, StructuredOutputMode.default('json_schema'))
    .describe('json_schema, json_object or text; falls back on endpoints that refuse json_schema'),
  OPENAI_PRICES: optionalText().describe(
    'JSON price table, USD per million tokens: {"model": {"inputPerMillion": 0.4, "outputPerMillion": 1.6}}',
  ),
  OPENAI_WRITER_BATCH_TOKENS: num(z.number().int().min(200).max(1_000_000), 6_000).describe(
    'Section evidence longer than this is drafted in batches',
  ),
  OPENAI_EMBEDDINGS_BASE_URL: optionalText().describe('Endpoint of the embeddings model; unset: OPENAI_BASE_URL'),
  OPENAI_EMBEDDINGS_API_KEY: optionalText().describe('Key of the embeddings endpoint; unset: OPENAI_API_KEY'),
  OPENAI_EMBEDDINGS_MODEL: optionalText().describe('Embeddings model of openai runs; unset: the offline hashing embedder'),
  OPENAI_EMBEDDINGS_DIMENSIONS: z
    .preprocess(blankIsUnset, z.coerce.number().int().min(8).max(65_536).optional())
    .describe('Size of the embedding vectors, asked of the model; unset: the known size of the model'),
  OPENAI_CAPTURE_PROMPTS: flag().describe('true: prompt text on the model spans'),
  DOSSIER_LLM_TEST_ECHO: optionalText().describe('1 with NODE_ENV=test only: the openai engine echoes its requests (tests)'),
});
export type ModelEnv = z.output<typeof ModelEnv>;

/** The per-role variables: one of each per role of the role registry (libs/agents/src/roles), ROLE in SNAKE_CASE. */
export const MODEL_ROLE_VARIABLES: readonly { name: string; description: string }[] = [
  { name: 'OPENAI_MODEL_<ROLE>', description: "The role's model; unset: OPENAI_MODEL" },
  { name: 'OPENAI_TEMPERATURE_<ROLE>', description: "The role's temperature, 0 to 2; unset: the role's own default" },
  { name: 'OPENAI_CONTEXT_TOKENS_<ROLE>', description: "The role's model context window; unset: OPENAI_CONTEXT_TOKENS" },
  { name: 'OPENAI_MAX_OUTPUT_TOKENS_<ROLE>', description: "The role's output cap; unset: OPENAI_MAX_OUTPUT_TOKENS" },
];

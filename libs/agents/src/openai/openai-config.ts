import { blankIsUnset, MIN_CONTEXT_SETTING, ModelEnv, type StructuredOutputMode } from '@dossier/config';
import { ROLE_NAMES, ROLES, type RoleName } from '../roles';
import { LlmConfigError } from '../errors';
import { DEFAULT_CONTEXT_TOKENS, knownContextTokens } from './context-windows';
import { DEFAULT_PRICES, PriceTable, type ModelPrice } from './prices';

// Declared in libs/config with every other variable (issue 26); re-exported where the agents' files import them.
export { MIN_CONTEXT_SETTING, StructuredOutputMode } from '@dossier/config';

/** `sectionWriter` → `SECTION_WRITER`: the suffix of the per-role variables. */
export function roleEnvSuffix(role: string): string {
  return role.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Temperature per role when OPENAI_TEMPERATURE_<ROLE> is unset (each role declares its own). */
export const DEFAULT_TEMPERATURES: Readonly<Record<RoleName, number>> = Object.fromEntries(
  ROLE_NAMES.map((r) => [r, ROLES[r].temperature]),
) as Record<RoleName, number>;

const KNOWN_EMBEDDING_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export interface RoleModelConfig {
  model: string;
  temperature: number;
  /** The variable that chose `model` (OPENAI_MODEL_<ROLE> or OPENAI_MODEL), for errors that name what to change. */
  modelSetting?: string;
}

/**
 * How large a role's requests may be (decision 0040): its model's context window and its output cap, each with the
 * variable that sets it, so an error about size names what to change.
 */
export interface RoleWindow {
  contextTokens: number;
  /** `OPENAI_CONTEXT_TOKENS_<ROLE>`, `OPENAI_CONTEXT_TOKENS`, or how it was found when neither is set. */
  contextSetting: string;
  maxOutputTokens: number;
  outputSetting: string;
}

/** The openai engine's settings, read from the worker's environment (never from a run: keys stay on the worker). */
export interface OpenAIConfig {
  baseUrl: string;
  apiKey: string;
  roles: Record<RoleName, RoleModelConfig>;
  /** Context window and output cap per role. */
  windows: Record<RoleName, RoleWindow>;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  ratePerSecond: number;
  /** Each second stretched by this much, so network jitter does not push a provider's one-second window over. */
  rateMarginMs: number;
  maxOutputTokens: number;
  structuredOutput: StructuredOutputMode;
  prices: Record<string, ModelPrice>;
  writerBatchTokens: number;
  /** `requestDimensions`: OPENAI_EMBEDDINGS_DIMENSIONS was set, so the model is asked for that size. */
  embeddings: {
    baseUrl: string;
    apiKey: string;
    model: string;
    dimension: number;
    requestDimensions: boolean;
    /** OPENAI_EMBEDDINGS_BASE_URL / _API_KEY were set (else the chat endpoint's are used): which variable an error names. */
    ownBaseUrl?: boolean;
    ownApiKey?: boolean;
  } | null;
  capturePrompts: boolean;
}

/**
 * Validates the openai settings. Called when a run first asks for the openai engine, so a worker without
 * them still serves offline runs; the error names every missing or malformed variable.
 */
export function openAIConfigFromEnv(env: Record<string, string | undefined>): OpenAIConfig {
  const parsed = ModelEnv.safeParse(env);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    throw new LlmConfigError(
      `Invalid openai engine settings: ${parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ')}`,
      {
        details: { variables: names },
      },
    );
  }
  const e = parsed.data;
  const missing = [...(e.OPENAI_BASE_URL ? [] : ['OPENAI_BASE_URL']), ...(e.OPENAI_MODEL ? [] : ['OPENAI_MODEL'])];
  if (missing.length > 0) {
    throw new LlmConfigError(
      `The run asks for the openai engine, but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set in this worker's environment (e.g. OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_MODEL=gpt-4.1-mini)`,
      { details: { variables: missing } },
    );
  }
  const roles = {} as Record<RoleName, RoleModelConfig>;
  const windows = {} as Record<RoleName, RoleWindow>;
  for (const role of ROLE_NAMES) {
    const suffix = roleEnvSuffix(role);
    const model = blankIsUnset(env[`OPENAI_MODEL_${suffix}`]) as string | undefined;
    const rawTemp = blankIsUnset(env[`OPENAI_TEMPERATURE_${suffix}`]) as string | undefined;
    const temperature = rawTemp === undefined ? DEFAULT_TEMPERATURES[role] : Number(rawTemp);
    if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
      throw new LlmConfigError(`OPENAI_TEMPERATURE_${suffix} must be a number from 0 to 2, got "${rawTemp}"`, {
        details: { variables: [`OPENAI_TEMPERATURE_${suffix}`] },
      });
    }
    roles[role] = {
      model: model?.trim() ?? e.OPENAI_MODEL!,
      temperature,
      modelSetting: model !== undefined ? `OPENAI_MODEL_${suffix}` : 'OPENAI_MODEL',
    };
    windows[role] = roleWindow(env, suffix, roles[role].model, e.OPENAI_CONTEXT_TOKENS, e.OPENAI_MAX_OUTPUT_TOKENS);
  }
  let prices: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  if (e.OPENAI_PRICES) {
    let json: unknown;
    try {
      json = JSON.parse(e.OPENAI_PRICES);
    } catch {
      throw new LlmConfigError('OPENAI_PRICES must be JSON: {"model": {"inputPerMillion": 0.4, "outputPerMillion": 1.6}}', {
        details: { variables: ['OPENAI_PRICES'] },
      });
    }
    const table = PriceTable.safeParse(json);
    if (!table.success) {
      throw new LlmConfigError(
        `OPENAI_PRICES is not a price table: ${table.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        {
          details: { variables: ['OPENAI_PRICES'] },
        },
      );
    }
    prices = { ...prices, ...table.data };
  }
  const embeddingsModel = e.OPENAI_EMBEDDINGS_MODEL;
  const dimension = e.OPENAI_EMBEDDINGS_DIMENSIONS ?? (embeddingsModel ? KNOWN_EMBEDDING_DIMENSIONS[embeddingsModel] : undefined);
  if (embeddingsModel && dimension === undefined) {
    throw new LlmConfigError(`OPENAI_EMBEDDINGS_DIMENSIONS is not set and the size of ${embeddingsModel}'s vectors is not known`, {
      details: { variables: ['OPENAI_EMBEDDINGS_DIMENSIONS'] },
    });
  }
  return {
    baseUrl: e.OPENAI_BASE_URL!,
    // Local servers (Ollama, vLLM, LM Studio) take no key, but the SDK wants a string.
    apiKey: e.OPENAI_API_KEY ?? 'not-needed',
    roles,
    windows,
    timeoutMs: e.OPENAI_TIMEOUT_MS,
    maxRetries: e.OPENAI_MAX_RETRIES,
    retryBaseMs: e.OPENAI_RETRY_BASE_MS,
    retryMaxMs: e.OPENAI_RETRY_MAX_MS,
    ratePerSecond: e.OPENAI_RATE_PER_SECOND,
    rateMarginMs: e.OPENAI_RATE_MARGIN_MS,
    maxOutputTokens: e.OPENAI_MAX_OUTPUT_TOKENS,
    structuredOutput: e.OPENAI_STRUCTURED_OUTPUT,
    prices,
    writerBatchTokens: e.OPENAI_WRITER_BATCH_TOKENS,
    embeddings: embeddingsModel
      ? {
          baseUrl: e.OPENAI_EMBEDDINGS_BASE_URL ?? e.OPENAI_BASE_URL!,
          apiKey: e.OPENAI_EMBEDDINGS_API_KEY ?? e.OPENAI_API_KEY ?? 'not-needed',
          model: embeddingsModel,
          dimension: dimension!,
          requestDimensions: e.OPENAI_EMBEDDINGS_DIMENSIONS !== undefined,
          ownBaseUrl: e.OPENAI_EMBEDDINGS_BASE_URL !== undefined,
          ownApiKey: e.OPENAI_EMBEDDINGS_API_KEY !== undefined,
        }
      : null,
    capturePrompts: e.OPENAI_CAPTURE_PROMPTS,
  };
}

/** The model settings of `role`: every role of the registry has them; any other name is a typed error, not a crash. */
export function roleModelConfig(config: Pick<OpenAIConfig, 'roles'>, role: string): RoleModelConfig {
  const cfg = Object.hasOwn(config.roles, role) ? config.roles[role as RoleName] : undefined;
  if (!cfg)
    throw new LlmConfigError(`No model settings for agent role ${role}: it is not in the role registry (libs/agents/src/roles)`, {
      details: { role },
    });
  return cfg;
}

/** A positive whole number from a per-role variable, or undefined when unset; a typed error naming it otherwise. */
function roleNumber(env: Record<string, string | undefined>, name: string, min: number): number | undefined {
  const raw = blankIsUnset(env[name]) as string | undefined;
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 10_000_000) {
    throw new LlmConfigError(`${name} must be a whole number of tokens from ${min}, got "${raw}"`, { details: { variables: [name] } });
  }
  return value;
}

/**
 * A role's window: its own variable, else OPENAI_CONTEXT_TOKENS, else the known size of its model, else 8,192 tokens;
 * its output cap: OPENAI_MAX_OUTPUT_TOKENS_<ROLE>, else OPENAI_MAX_OUTPUT_TOKENS.
 */
function roleWindow(
  env: Record<string, string | undefined>,
  suffix: string,
  model: string,
  context: number | undefined,
  maxOutput: number,
): RoleWindow {
  const own = roleNumber(env, `OPENAI_CONTEXT_TOKENS_${suffix}`, MIN_CONTEXT_SETTING);
  const known = knownContextTokens(model);
  const [contextTokens, contextSetting] =
    own !== undefined
      ? [own, `OPENAI_CONTEXT_TOKENS_${suffix}`]
      : context !== undefined
        ? [context, 'OPENAI_CONTEXT_TOKENS']
        : known !== undefined
          ? [known, `OPENAI_CONTEXT_TOKENS (unset; ${known} is the known window of ${model})`]
          : [DEFAULT_CONTEXT_TOKENS, `OPENAI_CONTEXT_TOKENS (unset; ${DEFAULT_CONTEXT_TOKENS} assumed for ${model})`];
  const ownOutput = roleNumber(env, `OPENAI_MAX_OUTPUT_TOKENS_${suffix}`, 16);
  return {
    contextTokens,
    contextSetting,
    maxOutputTokens: ownOutput ?? maxOutput,
    outputSetting: ownOutput !== undefined ? `OPENAI_MAX_OUTPUT_TOKENS_${suffix}` : 'OPENAI_MAX_OUTPUT_TOKENS',
  };
}

/** The window of `role`, like roleModelConfig. */
export function roleWindowConfig(config: Pick<OpenAIConfig, 'windows'>, role: string): RoleWindow {
  const window = Object.hasOwn(config.windows, role) ? config.windows[role as RoleName] : undefined;
  if (!window)
    throw new LlmConfigError(`No context settings for agent role ${role}: it is not in the role registry`, { details: { role } });
  return window;
}

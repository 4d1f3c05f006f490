import OpenAI from 'openai';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { backoffMs, registerSecret } from '@dossier/errors';
import { LlmUnavailableError, PreflightError } from '../errors';
import type { OpenAIConfig } from './openai-config';
import { classifyRequestError, providerSaid, type ErrorVerdict } from './request-errors';

/*
 * The openai engine's preflight (decision 0042): before a run's first paid request, one free request — GET /models —
 * says whether the endpoint is reachable, accepts the key and knows each configured model; the embeddings endpoint,
 * when one is configured, embeds one short text. What fails ends the run with a PreflightError naming the variable to
 * change, before anything is spent. A model the list does not name (llama.cpp lists a file name and serves any model
 * name; some servers have no /models) is asked one tiny chat request instead — recorded like every request (`ping`).
 */

/** What a models list must look like to be read; anything else counts as "no list" (the model is then pinged). */
const ModelList = z.array(z.looseObject({ id: z.string() }));

/** How many times a preflight request is retried on a transient fault (429, 5xx, timeout, dropped connection). */
const PREFLIGHT_RETRIES = 2;

export interface PreflightResult {
  /** The endpoint answered GET /models with a list. */
  listed: boolean;
  /** Models not in the list, confirmed with a chat request. */
  pinged: string[];
  /** The embeddings endpoint was checked. */
  embeddings: boolean;
}

/** Sends one tiny chat request for `model` (recorded by the caller); throws the SDK's error when it fails. */
export type Ping = (model: string, signal: AbortSignal) => Promise<void>;

export async function preflight(client: OpenAI, config: OpenAIConfig, ping: Ping): Promise<PreflightResult> {
  const models = new Map<string, Set<string>>();
  for (const role of Object.values(config.roles)) {
    models.set(role.model, (models.get(role.model) ?? new Set()).add(role.modelSetting ?? 'OPENAI_MODEL'));
  }
  const where = `the model endpoint ${config.baseUrl} (OPENAI_BASE_URL)`;
  let ids: string[] | null = null;
  try {
    const page = await retried(config, (signal) => client.models.list({ signal }));
    const list = ModelList.safeParse((page as { data?: unknown }).data);
    ids = list.success ? list.data.map((m) => m.id) : null;
  } catch (err) {
    const v = verdictOf(err, config);
    if (v.status === 401 || v.status === 403) throw keyRefused(where, v, 'OPENAI_API_KEY', err);
    if (v.status === undefined || v.retryable) throw unreachable(where, v, 'OPENAI_BASE_URL', err);
    // 404, 405, 400…: the server lists no models (or the base URL is wrong): the ping below tells which.
  }
  const pinged: string[] = [];
  for (const [model, settings] of models) {
    if (ids !== null && listed(ids, model)) continue;
    pinged.push(model);
    try {
      await retried(config, (signal) => ping(model, signal));
    } catch (err) {
      const v = verdictOf(err, config);
      const variables = [...settings];
      if (v.status === 401 || v.status === 403) throw keyRefused(where, v, 'OPENAI_API_KEY', err);
      if (v.status === undefined || v.retryable) throw unreachable(where, v, 'OPENAI_BASE_URL', err);
      if ((v.status === 404 || v.status === 400) && /model/i.test(v.message)) {
        throw new PreflightError(
          `${where} does not know the model ${model}: ${providerSaid(v.message)}${ids && ids.length > 0 ? ` (it lists ${ids.slice(0, 8).join(', ')})` : ''}; set ${variables.join(' / ')} to a model it serves`,
          { cause: err, details: { variables, model, status: v.status } },
        );
      }
      if (v.status === 404) {
        throw new PreflightError(
          `${where} has no chat completions route (404 on ${config.baseUrl}/chat/completions): set OPENAI_BASE_URL to the API's base, usually ending in /v1`,
          { cause: err, details: { variables: ['OPENAI_BASE_URL'], status: v.status } },
        );
      }
      // Any other refusal (a parameter this tiny request used) says the endpoint and the model exist: the run goes on.
    }
  }
  const e = config.embeddings;
  if (e) await checkEmbeddings(config, e);
  return { listed: ids !== null, pinged, embeddings: e !== null };
}

/** The embeddings endpoint embeds one short text, with the configured dimension (decision 0042). */
async function checkEmbeddings(config: OpenAIConfig, e: NonNullable<OpenAIConfig['embeddings']>): Promise<void> {
  registerSecret(e.apiKey);
  const client = new OpenAI({ baseURL: e.baseUrl, apiKey: e.apiKey, maxRetries: 0, timeout: config.timeoutMs + 1_000 });
  const urlSetting = e.ownBaseUrl ? 'OPENAI_EMBEDDINGS_BASE_URL' : 'OPENAI_BASE_URL';
  const keySetting = e.ownApiKey ? 'OPENAI_EMBEDDINGS_API_KEY' : 'OPENAI_API_KEY';
  const where = `the embeddings endpoint ${e.baseUrl} (${urlSetting}${e.ownBaseUrl ? '' : ', as OPENAI_EMBEDDINGS_BASE_URL is unset'})`;
  let vectors: unknown;
  try {
    const res = await retried(config, (signal) =>
      client.embeddings.create(
        {
          model: e.model,
          input: ['Dossier preflight'],
          encoding_format: 'float',
          ...(e.requestDimensions ? { dimensions: e.dimension } : {}),
        },
        { signal },
      ),
    );
    vectors = (res as { data?: unknown }).data;
  } catch (err) {
    const v = verdictOf(err, config);
    if (v.status === 401 || v.status === 403) throw keyRefused(where, v, keySetting, err);
    if (v.status === undefined || v.retryable) throw unreachable(where, v, urlSetting, err);
    const aboutModel = /model/i.test(v.message);
    const variables = aboutModel ? ['OPENAI_EMBEDDINGS_MODEL'] : [urlSetting, 'OPENAI_EMBEDDINGS_MODEL'];
    throw new PreflightError(
      `${where} refused to embed with ${e.model} (${v.type}: ${providerSaid(v.message)}): ${
        aboutModel ? 'set OPENAI_EMBEDDINGS_MODEL to a model it serves' : `set ${urlSetting} to a server with /embeddings`
      }, or unset OPENAI_EMBEDDINGS_MODEL to use the local embedder`,
      { cause: err, details: { variables, status: v.status } },
    );
  }
  const first = z
    .array(z.looseObject({ embedding: z.array(z.number()) }))
    .min(1)
    .safeParse(vectors);
  if (!first.success) {
    throw new PreflightError(`${where} answered with no embedding for ${e.model}: set OPENAI_EMBEDDINGS_MODEL to an embeddings model`, {
      details: { variables: ['OPENAI_EMBEDDINGS_MODEL'] },
    });
  }
  const size = first.data[0]!.embedding.length;
  if (size !== e.dimension) {
    throw new PreflightError(
      `The embeddings model ${e.model} returns ${size} dimensions, configured ${e.dimension}: set OPENAI_EMBEDDINGS_DIMENSIONS=${size}`,
      { details: { variables: ['OPENAI_EMBEDDINGS_DIMENSIONS'], dimension: size } },
    );
  }
}

/** Ollama names a model's default tag `:latest`; a setting may name it with or without. */
function listed(ids: readonly string[], model: string): boolean {
  const bare = (m: string) => m.replace(/:latest$/, '');
  return ids.some((id) => id === model || bare(id) === bare(model));
}

/** One preflight request, retried on transient faults a few times (the run's own retries are not for the preflight). */
async function retried<T>(config: OpenAIConfig, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const deadline = AbortSignal.timeout(config.timeoutMs);
    try {
      return await request(deadline);
    } catch (err) {
      const v = deadline.aborted ? timedOut(config) : classifyRequestError(err);
      if (!v.retryable || attempt >= Math.min(PREFLIGHT_RETRIES, config.maxRetries)) throw deadline.aborted ? new TimedOut(v) : err;
      await sleep(Math.min(v.retryAfterMs ?? backoffMs(attempt + 1, config.retryBaseMs, config.retryMaxMs), config.retryMaxMs));
    }
  }
}

class TimedOut extends Error {
  constructor(readonly verdict: ErrorVerdict) {
    super(verdict.message);
  }
}

function timedOut(config: OpenAIConfig): ErrorVerdict {
  return {
    retryable: true,
    retryAfterMs: undefined,
    type: 'timeout',
    status: undefined,
    message: `no answer within ${config.timeoutMs} ms`,
  };
}

function verdictOf(err: unknown, config: OpenAIConfig): ErrorVerdict {
  if (err instanceof TimedOut) return err.verdict;
  if (err instanceof Error && err.name === 'AbortError') return timedOut(config);
  return classifyRequestError(err);
}

function keyRefused(where: string, v: ErrorVerdict, setting: string, cause: unknown): PreflightError {
  return new PreflightError(`${where} refused the key (${v.type}: ${providerSaid(v.message)}): set ${setting} to a key it accepts`, {
    cause,
    details: { variables: [setting], status: v.status },
  });
}

/**
 * Not reachable, or only failing: a connection refused or a timeout names the address; a server that keeps answering
 * 429 or 5xx is an outage, not a setting, and the step is retried later (LlmUnavailableError).
 */
function unreachable(where: string, v: ErrorVerdict, setting: string, cause: unknown): PreflightError | LlmUnavailableError {
  if (v.status !== undefined) {
    return new LlmUnavailableError(`${where} keeps failing (${v.type}: ${providerSaid(v.message)})`, {
      cause,
      details: { status: v.status },
    });
  }
  return new PreflightError(`${where} is not reachable (${v.type}: ${providerSaid(v.message)}): check ${setting}`, {
    cause,
    details: { variables: [setting] },
  });
}

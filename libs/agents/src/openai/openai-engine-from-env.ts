import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
// The rate limiter is in libs/telemetry (issue 26): the engine no longer loads @dossier/sources' HTML and PDF extraction for it.
import { InProcessRateLimiter, RedisRateLimiter } from '@dossier/telemetry';
import type { ExternalAnswers } from '../ports/external-answers';
import { openAIConfigFromEnv } from './openai-config';
import { OpenAIEmbedder } from './openai-embedder';
import { OpenAIEngine } from './openai-engine';

/** The rate-limit key of a provider: its base URL, hashed (one budget per endpoint, shared by every worker). */
export function llmRateLimitKey(baseUrl: string): string {
  return `llm:${createHash('sha256').update(baseUrl).digest('hex').slice(0, 16)}`;
}

/**
 * The openai engine from the worker's environment. With Redis its rate limit (OPENAI_RATE_PER_SECOND) is shared
 * by every worker and process that talks to the same base URL; without, it is per process.
 */
export function openAIEngineFromEnv(env: Record<string, string | undefined>, redis: Redis | null): OpenAIEngine {
  const config = openAIConfigFromEnv(env);
  const limiter = redis
    ? new RedisRateLimiter(redis, {
        key: llmRateLimitKey(config.baseUrl),
        ratePerSecond: config.ratePerSecond,
        marginMs: config.rateMarginMs,
      })
    : new InProcessRateLimiter({ ratePerSecond: config.ratePerSecond, marginMs: config.rateMarginMs });
  // The test echo exists only under NODE_ENV=test (like the fetcher's test allowlist, decision 0007).
  const testEcho = env['NODE_ENV'] === 'test' && env['DOSSIER_LLM_TEST_ECHO'] === '1';
  return new OpenAIEngine({ config, limiter, testEcho, preflight: true });
}

/**
 * The embedder of OPENAI_EMBEDDINGS_*, or null when no embeddings model is configured; rate limit shared per endpoint.
 * `answers` records its batches in the run's recording (decision 0030); without it they go live, unrecorded.
 */
export function openAIEmbedderFromEnv(
  env: Record<string, string | undefined>,
  redis: Redis | null,
  answers?: ExternalAnswers,
): OpenAIEmbedder | null {
  const config = openAIConfigFromEnv(env);
  const e = config.embeddings;
  if (!e) return null;
  const limiter = redis
    ? new RedisRateLimiter(redis, { key: llmRateLimitKey(e.baseUrl), ratePerSecond: config.ratePerSecond, marginMs: config.rateMarginMs })
    : new InProcessRateLimiter({ ratePerSecond: config.ratePerSecond, marginMs: config.rateMarginMs });
  return new OpenAIEmbedder({
    baseUrl: e.baseUrl,
    apiKey: e.apiKey,
    model: e.model,
    dimension: e.dimension,
    requestDimensions: e.requestDimensions,
    limiter,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    retryBaseMs: config.retryBaseMs,
    retryMaxMs: config.retryMaxMs,
    ...(answers ? { answers } : {}),
  });
}

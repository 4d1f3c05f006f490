import OpenAI from 'openai';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { backoffMs, registerSecret } from '@dossier/errors';
import type { RateLimiter } from '@dossier/telemetry';
import type { Embedder } from '@dossier/vectors';
import { LlmRequestError, LlmUnavailableError } from '../errors';
import { LIVE_ANSWERS, type ExternalAnswers } from '../ports/external-answers';
import { providerName } from './provider-name';
import { classifyRequestError, providerSaid } from './request-errors';

const VECTORS = z.array(z.array(z.number()));

export interface OpenAIEmbedderOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The vector size the model returns (or is asked for, for models that take `dimensions`). */
  dimension: number;
  /** Send `dimensions` with the request (text-embedding-3 models can shorten their vectors). */
  requestDimensions?: boolean;
  limiter: RateLimiter;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Texts per request. */
  batchSize?: number;
  /** The run's recording of embeddings (decision 0030); without it every batch goes live, unrecorded. */
  answers?: ExternalAnswers;
}

/**
 * Embeddings from an OpenAI-compatible /v1/embeddings endpoint (the VectorStore port's Embedder): batched, shared
 * rate limit, the same retries as the chat engine, one span per request. Vectors are L2-normalised.
 */
export class OpenAIEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  private readonly client: OpenAI;
  private readonly tracer = trace.getTracer('dossier-agents');

  constructor(private readonly options: OpenAIEmbedderOptions) {
    this.name = `openai:${options.model}:${options.dimension}`;
    this.dimension = options.dimension;
    registerSecret(options.apiKey);
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey, maxRetries: 0, timeout: options.timeoutMs + 1_000 });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const size = this.options.batchSize ?? 128;
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.recordedBatch(texts.slice(i, i + size))));
    return out;
  }

  /** One request, recorded against the run's step, or answered from the replayed run's recording (decision 0030). */
  private async recordedBatch(input: string[]): Promise<Float32Array[]> {
    const vectors = await (this.options.answers ?? LIVE_ANSWERS).recorded(
      { kind: 'embedding', request: { model: this.name, input }, name: `${this.name} embeddings of ${input.length} texts` },
      VECTORS,
      async () => (await this.batch(input)).map((v) => [...v]),
    );
    return vectors.map((v) => Float32Array.from(v));
  }

  private async batch(input: string[]): Promise<Float32Array[]> {
    const o = this.options;
    for (let attempt = 0; ; attempt++) {
      await o.limiter.acquire();
      const span = this.tracer.startSpan(`embeddings ${o.model}`, {
        attributes: {
          'gen_ai.operation.name': 'embeddings',
          'gen_ai.provider.name': providerName(o.baseUrl),
          'gen_ai.request.model': o.model,
        },
      });
      const deadline = AbortSignal.timeout(o.timeoutMs);
      try {
        const res = await this.client.embeddings.create(
          { model: o.model, input, encoding_format: 'float', ...(o.requestDimensions ? { dimensions: o.dimension } : {}) },
          { signal: deadline },
        );
        span.setAttribute('gen_ai.usage.input_tokens', res.usage?.prompt_tokens ?? 0);
        span.end();
        const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => normalise(d.embedding));
        const wrong = vectors.find((v) => v.length !== this.dimension);
        if (wrong) {
          throw new LlmRequestError(
            `The embeddings model ${o.model} returned ${wrong.length} dimensions, configured ${this.dimension} (OPENAI_EMBEDDINGS_DIMENSIONS)`,
          );
        }
        return vectors;
      } catch (err) {
        if (err instanceof LlmRequestError) throw err;
        const verdict = deadline.aborted
          ? { retryable: true, retryAfterMs: undefined, type: 'timeout', status: undefined, message: `no answer within ${o.timeoutMs} ms` }
          : classifyRequestError(err);
        span.setAttribute('error.type', verdict.type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: verdict.message.slice(0, 200) });
        span.end();
        if (!verdict.retryable)
          throw new LlmRequestError(`The embeddings endpoint rejected the request (${verdict.type}): ${providerSaid(verdict.message)}`, {
            cause: err,
          });
        if (attempt >= o.maxRetries)
          throw new LlmUnavailableError(`The embeddings endpoint gave no answer after ${attempt + 1} attempts (last: ${verdict.type})`, {
            cause: err,
          });
        const waitMs = verdict.retryAfterMs ?? backoffMs(attempt + 1, o.retryBaseMs, o.retryMaxMs);
        if (verdict.status === 429 && verdict.retryAfterMs !== undefined) await o.limiter.pauseFor?.(waitMs);
        await sleep(Math.min(waitMs, o.retryMaxMs));
      }
    }
  }
}

function normalise(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

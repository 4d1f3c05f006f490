import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, registerSecret } from '@dossier/errors';
// Type only: the limiters themselves are built in openai-engine-from-env, so importing the engine loads no source code.
import type { RateLimiter } from '@dossier/sources';
import type { z } from 'zod';
import type { CallHooks, Engine, EngineCompletion, RequestEstimate, RequestRecord, RequestTicket } from '../engine/engine';
import { requestHash, type RecordedAnswer } from '../engine/recorded-answer';
import { AgentOutputError, AgentRefusalError, LlmRequestError, LlmUnavailableError } from '../errors';
import { dataBlock } from '../prompt/data-block';
import type { AgentRole } from '../roles/role';
import { draftSectionInBatches, needsBatches } from '../writing/batch-section';
import { roleModelConfig, type OpenAIConfig, type RoleModelConfig, type StructuredOutputMode } from './openai-config';
import { parseJsonReply, stripReasoning } from './parse-output';
import { costUsd } from './prices';
import { providerName } from './provider-name';
import { classifyRequestError, providerSaid, rejectsResponseFormat } from './request-errors';
import { strictJsonSchema } from './response-schema';
import { shortenIds } from './short-ids';
import { countMessageTokens, countTokens } from './tokens';

type Message = { role: 'system' | 'user'; content: string };

const NO_HOOKS: CallHooks = {
  stepKey: 'none',
  beforeRequest: async () => ({ id: randomUUID() }),
  afterRequest: async () => undefined,
};

const MAX_ERROR_TEXT = 2000;
const DOWNGRADE: Record<StructuredOutputMode, StructuredOutputMode | null> = {
  json_schema: 'json_object',
  json_object: 'text',
  text: null,
};

interface Answer {
  content: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** What the model replied, as llm_calls keeps it; absent when no answer came. */
  recorded?: RecordedAnswer;
}

/** A reply ready to be checked, with what is needed to record its outcome (no span and no new record when reused). */
interface Sent {
  answer: Answer;
  ticket: RequestTicket;
  span: Span | undefined;
  started: number;
}

export interface OpenAIEngineOptions {
  config: OpenAIConfig;
  /** Shared by every worker that talks to this provider (a RedisRateLimiter keyed by the base URL). */
  limiter: RateLimiter;
  /**
   * Tests only (NODE_ENV=test): send the role and its input beside the prompt, so a local fake server can answer
   * with the role's offline output. Never set in production; the real API would reject the unknown field.
   */
  testEcho?: boolean;
}

/**
 * Any OpenAI-compatible chat endpoint playing the agent roles. Every request: budget checked (and its
 * estimate reserved), a token from the provider's shared rate limit, a timeout, one span with the GenAI
 * attributes, one llm_calls row. Answers are validated against the role's zod schema, with one repair
 * request that shows the model its error.
 */
export class OpenAIEngine implements Engine {
  readonly name = 'openai';
  readonly recordsRequests = true;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly provider: string;
  /** Structured-output mode per model, lowered when an endpoint refuses one. */
  private readonly modes = new Map<string, StructuredOutputMode>();
  private readonly tracer = trace.getTracer('dossier-agents');

  constructor(private readonly options: OpenAIEngineOptions) {
    const { config } = options;
    this.model = config.roles.director.model;
    // The key may come from an env record other than process.env: the shared redaction must know it too.
    registerSecret(config.apiKey);
    // The SDK's own retries are off: ours honour Retry-After, share the pause through the limiter, and record every attempt.
    this.client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey, maxRetries: 0, timeout: config.timeoutMs + 1_000 });
    this.provider = providerName(config.baseUrl);
    // Loading the tokenizer takes seconds of CPU: at construction (worker boot), not inside a step holding a queue lock.
    countTokens('');
  }

  async complete<I, O>(role: AgentRole<I, O>, input: I, hooks: CallHooks = NO_HOOKS): Promise<EngineCompletion<O>> {
    if (needsBatches(role, input, this.options.config.writerBatchTokens)) {
      return draftSectionInBatches(role, input, this.options.config.writerBatchTokens, (r, i) => this.completeOnce(r, i, hooks));
    }
    return this.completeOnce(role, input, hooks);
  }

  /** The model sees short ids (E12) in place of uuids; its validated answer gets the uuids back. */
  private async completeOnce<I, O>(role: AgentRole<I, O>, input: I, hooks: CallHooks): Promise<EngineCompletion<O>> {
    const ids = shortenIds(input);
    const done = await this.completeShort(role, ids.input, hooks);
    return { ...done, output: role.output.parse(ids.restore(done.output)) };
  }

  private async completeShort<I, O>(role: AgentRole<I, O>, input: I, hooks: CallHooks): Promise<EngineCompletion<O>> {
    const cfg = roleModelConfig(this.options.config, role.name);
    const prompt = role.prompt(input);
    const messages: Message[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ];
    const total = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
    let repair = null as { reply: string; error: string } | null;
    for (let round = 0; round < 2; round++) {
      const conversation: Message[] = repair ? [...messages, repairMessage(repair.reply, repair.error)] : messages;
      const { answer, ticket, span, started } = await this.send(role, input, cfg, conversation, hooks);
      total.tokensIn += answer.tokensIn;
      total.tokensOut += answer.tokensOut;
      total.costUsd += answer.costUsd;
      const parsed = parseJsonReply(answer.content);
      const error = this.problems(role, input, parsed);
      if (typeof error !== 'string') {
        await this.finish(hooks, ticket, span, started, answer, 'ok', null);
        return { output: error.output, model: answer.model, ...total };
      }
      await this.finish(hooks, ticket, span, started, answer, 'invalid', error);
      repair = { reply: stripReasoning(answer.content), error };
      if (round === 1) {
        throw new AgentOutputError(
          `The model ${answer.model} gave unusable output for the ${role.name} role twice (after one repair request): ${error}`.slice(
            0,
            MAX_ERROR_TEXT,
          ),
          { details: { role: role.name, model: answer.model } },
        );
      }
    }
    throw new Error('unreachable');
  }

  /** The validated output, or what is wrong with the reply: JSON, grounding in the input, schema, citations. */
  private problems<I, O>(role: AgentRole<I, O>, input: I, parsed: ReturnType<typeof parseJsonReply>): { output: O } | string {
    if (!parsed.ok) return parsed.error;
    const grounded = role.ground ? role.ground(input, parsed.value) : { value: parsed.value, issues: [] };
    if (grounded.issues.length > 0) return grounded.issues.join('; ');
    const checked = role.output.safeParse(grounded.value);
    if (!checked.success) return describeIssues(checked.error);
    const issues = role.check?.(input, checked.data) ?? [];
    return issues.length > 0 ? `the answer is not grounded in the data given: ${issues.slice(0, 10).join('; ')}` : { output: checked.data };
  }

  /**
   * One answered request (after retries); the caller records its outcome once it has checked the content. An
   * identical request this step already paid for (it ran before and its process died) is answered from llm_calls.
   */
  private async send<I>(role: AgentRole<I, unknown>, input: I, cfg: RoleModelConfig, messages: Message[], hooks: CallHooks): Promise<Sent> {
    const { config, limiter } = this.options;
    const maxTokens = config.maxOutputTokens;
    const promptTokens = countMessageTokens(messages);
    for (let attempt = 0; ; attempt++) {
      const mode = this.modes.get(cfg.model) ?? config.structuredOutput;
      const body: Record<string, unknown> = {
        model: cfg.model,
        messages,
        temperature: cfg.temperature,
        max_tokens: maxTokens,
        ...responseFormat(mode, role.name, role.output),
      };
      const hash = requestHash(body);
      const recorded = await hooks.recordedAnswer?.(hash);
      if (recorded) return this.accept(role, hooks, { id: recorded.id, replayed: true }, undefined, performance.now(), recorded.answer);
      const estimate: RequestEstimate = {
        model: cfg.model,
        tokens: promptTokens + maxTokens,
        costUsd: costUsd(config.prices, cfg.model, promptTokens, maxTokens),
      };
      const ticket = await hooks.beforeRequest(estimate, hash);
      await limiter.acquire();
      const span = this.startSpan(role.name, cfg, hooks.stepKey, messages);
      const started = performance.now();
      // Our own deadline, so a stall is told apart from a dropped connection whatever fetch reports.
      const deadline = AbortSignal.timeout(config.timeoutMs);
      let reply: RecordedAnswer;
      try {
        const sent = this.options.testEcho ? { ...body, dossier_test: { role: role.name, input } } : body;
        const res = await this.client.chat.completions.create(sent as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {
          // The step key and the llm_calls row let a test server match its requests to our records; real providers are
          // not told our run ids.
          ...(this.options.testEcho ? { headers: { 'X-Dossier-Step-Key': hooks.stepKey, 'X-Dossier-Call-Id': ticket.id } } : {}),
          signal: deadline,
        });
        const choice = res.choices[0];
        const content = choice?.message.content ?? '';
        const tokensIn = res.usage?.prompt_tokens ?? promptTokens;
        const tokensOut = res.usage?.completion_tokens ?? countTokens(content);
        reply = {
          content,
          model: res.model || cfg.model,
          tokensIn,
          tokensOut,
          costUsd: costUsd(config.prices, cfg.model, tokensIn, tokensOut),
          finishReason: choice?.finish_reason ?? null,
          refusal: choice?.message.refusal ?? null,
        };
      } catch (err) {
        const verdict = deadline.aborted
          ? {
              retryable: true,
              retryAfterMs: undefined,
              type: 'timeout',
              status: undefined,
              message: `no answer within ${config.timeoutMs} ms`,
            }
          : classifyRequestError(err);
        const failed: Answer = { content: '', model: cfg.model, tokensIn: 0, tokensOut: 0, costUsd: 0 };
        await this.finish(hooks, ticket, span, started, failed, 'error', `${verdict.type}: ${verdict.message}`, verdict.type);
        const lower = DOWNGRADE[mode];
        if (rejectsResponseFormat(verdict) && lower) {
          // The endpoint does not do this structured-output mode: the next one down, remembered for the model.
          this.modes.set(cfg.model, lower);
          attempt--;
          continue;
        }
        if (!verdict.retryable) {
          throw new LlmRequestError(
            `The model endpoint rejected the ${role.name} request (${verdict.type}): ${providerSaid(verdict.message)}`,
            {
              cause: err,
              details: { role: role.name, model: cfg.model, status: verdict.status },
            },
          );
        }
        if (attempt >= config.maxRetries) {
          throw new LlmUnavailableError(
            `The model endpoint gave no usable answer for the ${role.name} role after ${attempt + 1} attempts (last: ${verdict.type}: ${providerSaid(verdict.message)})`,
            { cause: err, details: { role: role.name, model: cfg.model, status: verdict.status } },
          );
        }
        const waitMs = verdict.retryAfterMs ?? backoffMs(attempt + 1, config.retryBaseMs, config.retryMaxMs);
        // A 429 says the account is over its limit: every worker pauses, not only this one.
        if (verdict.status === 429 && verdict.retryAfterMs !== undefined) await limiter.pauseFor?.(waitMs);
        await sleep(Math.min(waitMs, config.retryMaxMs));
        continue;
      }
      return this.accept(role, hooks, ticket, span, started, reply);
    }
  }

  /** A reply, fresh or reused: cut at the output cap and refusals end the call; anything else goes on to be checked. */
  private async accept<I>(
    role: AgentRole<I, unknown>,
    hooks: CallHooks,
    ticket: RequestTicket,
    span: Span | undefined,
    started: number,
    reply: RecordedAnswer,
  ): Promise<Sent> {
    const answer: Answer = { ...reply, recorded: reply };
    const refusal = reply.refusal ?? (reply.finishReason === 'content_filter' ? 'the provider filtered the content' : null);
    const maxTokens = this.options.config.maxOutputTokens;
    if (reply.finishReason === 'length') {
      // A reply cut at the output cap: asking again gives the same cut, so no repair request.
      await this.finish(hooks, ticket, span, started, answer, 'invalid', `output cut at ${maxTokens} tokens`);
      throw new AgentOutputError(
        `The model ${answer.model} ran out of output tokens (${maxTokens}) answering the ${role.name} role: raise OPENAI_MAX_OUTPUT_TOKENS or use a model with a larger output limit`,
        { details: { role: role.name, model: answer.model } },
      );
    }
    if (refusal) {
      await this.finish(hooks, ticket, span, started, answer, 'refused', `refusal: ${refusal}`);
      throw new AgentRefusalError(`The model ${answer.model} refused the ${role.name} role: ${refusal}`.slice(0, MAX_ERROR_TEXT), {
        details: { role: role.name, model: answer.model },
      });
    }
    return { answer, ticket, span, started };
  }

  private startSpan(role: string, cfg: RoleModelConfig, stepKey: string, messages: Message[]): Span {
    const span = this.tracer.startSpan(`chat ${cfg.model}`, {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': this.provider,
        'gen_ai.request.model': cfg.model,
        'gen_ai.request.temperature': cfg.temperature,
        'gen_ai.request.max_tokens': this.options.config.maxOutputTokens,
        'dossier.agent.role': role,
        'dossier.step_key': stepKey,
      },
    });
    // Prompts hold source text and user questions: off unless the operator asks for them.
    if (this.options.config.capturePrompts) span.setAttribute('gen_ai.input.messages', JSON.stringify(messages));
    return span;
  }

  private async finish(
    hooks: CallHooks,
    ticket: RequestTicket,
    span: Span | undefined,
    started: number,
    answer: Answer,
    outcome: RequestRecord['outcome'],
    error: string | null,
    errorType?: string,
  ): Promise<void> {
    // A reused answer was recorded (and paid for) when it first came: nothing to span or record again.
    if (ticket.replayed) return;
    const latencyMs = Math.max(0, Math.round(performance.now() - started));
    if (span?.isRecording()) {
      span.setAttributes({
        'gen_ai.response.model': answer.model,
        'gen_ai.usage.input_tokens': answer.tokensIn,
        'gen_ai.usage.output_tokens': answer.tokensOut,
        'dossier.llm.outcome': outcome,
      });
      if (outcome !== 'ok') {
        span.setAttribute('error.type', errorType ?? outcome);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error ?? outcome).slice(0, 200) });
      }
      if (this.options.config.capturePrompts && answer.content)
        span.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: answer.content }]));
    }
    span?.end();
    await hooks.afterRequest(ticket, {
      model: answer.model,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      costUsd: answer.costUsd,
      latencyMs,
      outcome,
      error: error?.slice(0, MAX_ERROR_TEXT) ?? null,
      ...(answer.recorded ? { answer: answer.recorded } : {}),
    });
  }
}

function responseFormat(mode: StructuredOutputMode, name: string, schema: z.ZodType): Record<string, unknown> {
  switch (mode) {
    case 'json_schema':
      return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: strictJsonSchema(schema) } } };
    case 'json_object':
      return { response_format: { type: 'json_object' } };
    case 'text':
      return {};
  }
}

/** The repair request: the previous reply and the validation error, both as data (the reply may echo source text). */
function repairMessage(reply: string, error: string): Message {
  return {
    role: 'user',
    content: [
      'Your previous reply could not be used. It and the validation error follow as data.',
      dataBlock('previous reply', reply || '(empty)'),
      dataBlock('validation error', error),
      'Reply again with only the corrected JSON object, valid against the schema in the instructions.',
    ].join('\n\n'),
  };
}

function describeIssues(error: z.ZodError): string {
  return `the JSON does not match the schema: ${error.issues
    .slice(0, 10)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ')}`;
}

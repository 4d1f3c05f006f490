import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, registerSecret } from '@dossier/errors';
// Type only: the limiters themselves are built in openai-engine-from-env, so importing the engine loads no source code.
import type { RateLimiter } from '@dossier/telemetry';
import type { z } from 'zod';
import type { LlmCallNotes } from '@dossier/contracts';
import type { CallHooks, Engine, EngineCompletion, RequestEstimate, RequestRecord, RequestTicket } from '../engine/engine';
import { requestHash, type RecordedAnswer } from '../engine/recorded-answer';
import { AgentOutputError, AgentRefusalError, ContextWindowError, LlmRequestError, LlmUnavailableError } from '../errors';
import { dataBlock } from '../prompt/data-block';
import type { AgentRole } from '../roles/role';
import { draftSectionInBatches, needsBatches } from '../writing/batch-section';
import { NO_HYGIENE, type HygieneCounts } from '../writing/model-text';
import { gateModelText } from '../writing/text-gate';
import {
  roleModelConfig,
  roleWindowConfig,
  type OpenAIConfig,
  type RoleModelConfig,
  type RoleWindow,
  type StructuredOutputMode,
} from './openai-config';
import { conformToSchema } from './conform';
import { parseJsonReply, stripReasoning, type LocalRepair } from './parse-output';
import { costUsd } from './prices';
import { providerName } from './provider-name';
import { classifyRequestError, providerSaid, rejectsResponseFormat } from './request-errors';
import { DEFAULT_CONTEXT_TOKENS } from './context-windows';
import { contextOverflow, dataBudget, outputRoom, promptFits, MIN_OUTPUT_TOKENS } from './request-size';
import { strictJsonSchema } from './response-schema';
import { shortenIds, type ShortIds } from './short-ids';
import { countChatTokens, countMessageTokens, countTokens, TOKENS_PER_MESSAGE } from './tokens';
import { preflight, type PreflightResult } from './preflight';

type Message = { role: 'system' | 'user'; content: string };

/**
 * A call's prompt as it is sent, built once per call: the input with short ids (and the way back), the two messages and
 * our count of their tokens (before the server's ratio). Fitting the call to its window and sending it used to build
 * and count the same prompt twice (decision 0143).
 */
interface BuiltPrompt<I> {
  ids: ShortIds<I>;
  messages: Message[];
  tokens: number;
}

const NO_HOOKS: CallHooks = {
  stepKey: 'none',
  beforeRequest: async () => ({ id: randomUUID() }),
  afterRequest: async () => undefined,
};

const MAX_ERROR_TEXT = 2000;
/** What goes on the wire: the configured mode, or json_schema without its limits for endpoints that refuse them. */
type WireMode = StructuredOutputMode | 'json_schema_bare';
const DOWNGRADE: Record<WireMode, WireMode | null> = {
  json_schema: 'json_schema_bare',
  json_schema_bare: 'json_object',
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
  /** Stopped at the output cap (finish_reason length). */
  cut: boolean;
  /** The max_tokens the request carried (0 for a reused answer). */
  maxTokens: number;
  refusal: string | null;
}

/**
 * The server refused a request as too large for its window even after one smaller try: the call's input is fitted
 * again with what the server said (split where the role can be), once (decision 0040).
 */
class ContextOverflowSignal extends Error {}

/** A role's window as this engine knows it now: the setting, or less once the server said so. */
interface Window extends RoleWindow {
  /** Our count of a prompt times this is the server's (its tokenizer, its chat template), once it told us. */
  tokenRatio: number;
}

/** Our count of a prompt in the server's tokens, as far as this window knows the ratio. */
const windowTokens = (tokens: number, window: Window): number => Math.ceil(tokens * window.tokenRatio);

export interface OpenAIEngineOptions {
  config: OpenAIConfig;
  /** Shared by every worker that talks to this provider (a RedisRateLimiter keyed by the base URL). */
  limiter: RateLimiter;
  /**
   * Tests only (NODE_ENV=test): send the role and its input beside the prompt, so a local fake server can answer
   * with the role's offline output. Never set in production; the real API would reject the unknown field.
   */
  testEcho?: boolean;
  /**
   * Check the endpoint before the first live request of this process (decision 0042): reachable, key accepted, models
   * known, embeddings endpoint working. Set for engines built from the environment; engines built by hand in tests skip it.
   */
  preflight?: boolean;
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
  private readonly modes = new Map<string, WireMode>();
  /** Per model: the window its server reported when it refused a request as too large (smaller than the setting). */
  private readonly served = new Map<string, number>();
  /** Per model: the server's prompt count over ours, when a refusal told it. */
  private readonly ratios = new Map<string, number>();
  private readonly tracer = trace.getTracer('dossier-agents');
  /** The preflight, once it has passed (or while it runs); a failed one is tried again by the next request. */
  private preflighted: Promise<PreflightResult> | null = null;

  constructor(private readonly options: OpenAIEngineOptions) {
    const { config } = options;
    this.model = config.roles.director.model;
    // The key may come from an env record other than the process's environment: the shared redaction must know it too.
    registerSecret(config.apiKey);
    // The SDK's own retries are off: ours honour Retry-After, share the pause through the limiter, and record every attempt.
    this.client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey, maxRetries: 0, timeout: config.timeoutMs + 1_000 });
    this.provider = providerName(config.baseUrl);
    // Loading the tokenizer takes seconds of CPU: at construction (worker boot), not inside a step holding a queue lock.
    countTokens('');
  }

  async complete<I, O>(role: AgentRole<I, O>, input: I, hooks: CallHooks = NO_HOOKS): Promise<EngineCompletion<O>> {
    return this.fitted(role, input, hooks, true);
  }

  /**
   * A call sized to its model's window (decision 0040): a section's evidence drafted in parts that fit, an input too
   * large for one request split where the role can be, and otherwise a typed error naming the setting — before any
   * request is sent. A server that refuses the request as too large has it fitted again once, with what it said.
   */
  private async fitted<I, O>(role: AgentRole<I, O>, input: I, hooks: CallHooks, mayRefit: boolean): Promise<EngineCompletion<O>> {
    const window = this.window(role.name);
    const batchTokens = Math.min(this.options.config.writerBatchTokens, dataBudget(window.contextTokens, window.maxOutputTokens));
    if (needsBatches(role, input, batchTokens)) {
      return draftSectionInBatches(role, input, batchTokens, (r, i) => this.fitted(r, i, hooks, mayRefit));
    }
    const built = this.build(role, input);
    const prompt = windowTokens(built.tokens, window);
    if (!promptFits(prompt, window.contextTokens, window.maxOutputTokens)) {
      const split = role.split?.(input);
      if (split) {
        const [a, b] = split.parts;
        const first = await this.fitted(role, a, hooks, mayRefit);
        const second = await this.fitted(role, b, hooks, mayRefit);
        return {
          output: split.join([first.output, second.output]),
          model: second.model,
          tokensIn: first.tokensIn + second.tokensIn,
          tokensOut: first.tokensOut + second.tokensOut,
          costUsd: first.costUsd + second.costUsd,
        };
      }
      if (outputRoom(prompt, window.contextTokens, window.maxOutputTokens) === null) {
        const smaller = role.fit?.(input);
        if (smaller) return this.fitted(role, smaller, hooks, mayRefit);
        throw this.tooSmall(role.name, prompt, window);
      }
    }
    try {
      return await this.completeOnce(role, built, hooks);
    } catch (err) {
      if (!(err instanceof ContextOverflowSignal)) throw err;
      const now = this.window(role.name);
      if (!mayRefit) throw this.tooSmall(role.name, windowTokens(built.tokens, now), now);
      return this.fitted(role, input, hooks, false);
    }
  }

  /** The role's window now: the setting, or the smaller one its server reported. */
  private window(role: string): Window {
    const set = roleWindowConfig(this.options.config, role);
    const model = roleModelConfig(this.options.config, role).model;
    const served = this.served.get(model);
    return {
      ...set,
      contextTokens: served !== undefined ? Math.min(served, set.contextTokens) : set.contextTokens,
      tokenRatio: this.ratios.get(model) ?? 1,
    };
  }

  /** The prompt a call sends (ids shortened, as sent) and our count of its tokens. */
  private build<I>(role: AgentRole<I, unknown>, input: I): BuiltPrompt<I> {
    const ids = shortenIds(input);
    const prompt = role.prompt(ids.input);
    return {
      ids,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      tokens: countChatTokens(prompt.system, prompt.user),
    };
  }

  private tooSmall(role: string, promptTokens: number, window: Window): ContextWindowError {
    return new ContextWindowError(
      `The ${role} request needs about ${promptTokens} prompt tokens and at least ${MIN_OUTPUT_TOKENS} for the answer, more than the model's context window of ${window.contextTokens} tokens allows, and its input cannot be split further: raise ${window.contextSetting} to the window the server really has, or use a model with a larger one`,
      { details: { role, promptTokens, contextTokens: window.contextTokens, variables: [window.contextSetting.split(' ')[0]] } },
    );
  }

  /** The model sees short ids (E12) in place of uuids; its validated answer gets the uuids back. */
  private async completeOnce<I, O>(role: AgentRole<I, O>, built: BuiltPrompt<I>, hooks: CallHooks): Promise<EngineCompletion<O>> {
    const done = await this.completeShort(role, built, hooks);
    return { ...done, output: role.output.parse(built.ids.restore(done.output)) };
  }

  /**
   * One role call: the request, local repairs of the reply, validation, and at most one repair request that shows the
   * model what was wrong. Wrong ids still there after the repair are dropped from the answer (counted); an answer that
   * stays unusable — or a refusal, or one cut at the output cap beyond local repair — ends the call with an
   * AgentOutputError / AgentRefusalError whose last llm_calls row says how the runner goes on (decision 0019).
   */
  private async completeShort<I, O>(role: AgentRole<I, O>, built: BuiltPrompt<I>, hooks: CallHooks): Promise<EngineCompletion<O>> {
    const cfg = roleModelConfig(this.options.config, role.name);
    const { messages } = built;
    const input = built.ids.input;
    const total = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
    const gaveUp: LlmCallNotes['gaveUp'] = role.skipped ? 'skipped' : 'offline';
    let repair = null as { reply: string; error: string } | null;
    // A first answer whose only faults were references: kept, cleaned, in case the repair request does worse.
    let earlier: Cleaned<O> | null = null;
    for (let round = 0; round < 2; round++) {
      const extra = repair ? repairMessage(repair.reply, repair.error) : null;
      const conversation: Message[] = extra ? [...messages, extra] : messages;
      // countMessageTokens(conversation), from the prompt's count: the repair message is the only new text.
      const promptTokens = extra ? built.tokens + TOKENS_PER_MESSAGE + countTokens(extra.content) : built.tokens;
      const { answer, ticket, span, started, cut, refusal, maxTokens } = await this.send(
        role,
        input,
        cfg,
        conversation,
        promptTokens,
        hooks,
      );
      total.tokensIn += answer.tokensIn;
      total.tokensOut += answer.tokensOut;
      total.costUsd += answer.costUsd;
      const base: LlmCallNotes = round === 1 ? { repairRequest: true } : {};
      if (refusal !== null) {
        await this.finish(hooks, ticket, span, started, answer, 'refused', `refusal: ${refusal}`, undefined, { ...base, gaveUp });
        throw new AgentRefusalError(`The model ${answer.model} refused the ${role.name} role: ${refusal}`.slice(0, MAX_ERROR_TEXT), {
          details: { role: role.name, model: answer.model },
        });
      }
      const verdict = evaluate(role, input, answer.content);
      const notes: LlmCallNotes = {
        ...base,
        ...(verdict.repairs.length > 0 ? { localRepairs: verdict.repairs } : {}),
        ...(verdict.trimmed > 0 ? { trimmed: verdict.trimmed } : {}),
      };
      if ('output' in verdict) {
        await this.finish(hooks, ticket, span, started, answer, 'ok', null, undefined, notes);
        return { output: verdict.output, model: answer.model, ...total };
      }
      // An answer of the wrong shape for its batch (decision 0040) is not asked again whole: the runner asks in parts.
      const inParts = 'error' in verdict && verdict.askInParts === true && role.split?.(input) != null;
      const last = round === 1 || cut || inParts;
      const kept = last ? (verdict.cleaned ?? earlier) : null;
      if (kept) {
        // What the repair request did not fix is dropped, never written.
        await this.finish(
          hooks,
          ticket,
          span,
          started,
          answer,
          verdict.cleaned ? 'ok' : 'invalid',
          verdict.cleaned ? null : verdict.error,
          undefined,
          {
            ...notes,
            droppedIds: kept.dropped,
            ...(hygieneCount(kept.hygiene) > 0 ? { hygiene: kept.hygiene } : {}),
          },
        );
        return { output: kept.output, model: answer.model, ...total };
      }
      if (last) {
        const window = this.window(role.name);
        const bound =
          maxTokens < window.maxOutputTokens
            ? `the room the model's context window (${window.contextSetting}) leaves beside the prompt`
            : `raise ${window.outputSetting} or use a model with a larger output limit`;
        const why = cut
          ? `the reply was cut at ${maxTokens} output tokens (${bound}) and could not be completed locally: ${verdict.error}`
          : `unusable output twice (after one repair request): ${verdict.error}`;
        await this.finish(hooks, ticket, span, started, answer, 'invalid', verdict.error, undefined, {
          ...notes,
          gaveUp: inParts ? 'parts' : gaveUp,
        });
        throw new AgentOutputError(
          `The model ${answer.model} gave ${role.name} ${inParts ? `an answer of the wrong shape for its batch: ${verdict.error}` : why}`.slice(
            0,
            MAX_ERROR_TEXT,
          ),
          {
            details: { role: role.name, model: answer.model, ...(inParts ? { askInParts: true } : {}) },
          },
        );
      }
      await this.finish(hooks, ticket, span, started, answer, 'invalid', verdict.error, undefined, notes);
      earlier = verdict.cleaned;
      repair = { reply: stripReasoning(answer.content), error: verdict.error };
    }
    throw new Error('unreachable');
  }

  /**
   * One answered request (after retries); the caller records its outcome once it has checked the content. An
   * identical request this step already paid for (it ran before and its process died) is answered from llm_calls.
   */
  private async send<I>(
    role: AgentRole<I, unknown>,
    input: I,
    cfg: RoleModelConfig,
    messages: Message[],
    promptTokens: number,
    hooks: CallHooks,
  ): Promise<Sent> {
    const { config, limiter } = this.options;
    // Sized to the window (decision 0040); one refusal for size makes the request smaller once, then the call is refitted.
    let shrunk = false;
    let window = this.window(role.name);
    let maxTokens = outputRoom(windowTokens(promptTokens, window), window.contextTokens, window.maxOutputTokens);
    if (maxTokens === null) throw new ContextOverflowSignal();
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
      if (recorded) return this.accept({ id: recorded.id, replayed: true }, undefined, performance.now(), recorded.answer, maxTokens);
      // Before the first live request: an endpoint that cannot serve the run fails it here, nothing spent (0042).
      if (this.options.preflight) await this.ready(hooks);
      const estimate: RequestEstimate = {
        model: cfg.model,
        tokens: promptTokens + maxTokens,
        costUsd: costUsd(config.prices, cfg.model, promptTokens, maxTokens),
      };
      const ticket = await hooks.beforeRequest(estimate, hash);
      await limiter.acquire();
      const span = this.startSpan(role.name, cfg, hooks.stepKey, messages, maxTokens);
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
        const overflow = contextOverflow(verdict);
        if (overflow) {
          // What the server said about its window and our prompt holds for every later request of this model.
          if (overflow.contextTokens !== undefined && overflow.contextTokens < window.contextTokens)
            this.served.set(cfg.model, overflow.contextTokens);
          // A server that names no window (llama.cpp): assume half the window we thought, at most the usual local one.
          else if (overflow.contextTokens === undefined)
            this.served.set(cfg.model, Math.min(DEFAULT_CONTEXT_TOKENS, Math.floor(window.contextTokens / 2)));
          if (overflow.promptTokens !== undefined && overflow.promptTokens > promptTokens * window.tokenRatio)
            this.ratios.set(cfg.model, overflow.promptTokens / promptTokens);
          window = this.window(role.name);
          const room = outputRoom(windowTokens(promptTokens, window), window.contextTokens, window.maxOutputTokens);
          if (shrunk || room === null) throw new ContextOverflowSignal();
          shrunk = true;
          maxTokens = room;
          attempt--;
          continue;
        }
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
      return this.accept(ticket, span, started, reply, maxTokens);
    }
  }

  /** The preflight of this process's endpoint (decision 0042): run once, shared by concurrent first requests. */
  private ready(hooks: CallHooks): Promise<PreflightResult> {
    this.preflighted ??= preflight(this.client, this.options.config, (model, signal) => this.ping(model, signal, hooks)).catch(
      (err: unknown) => {
        this.preflighted = null;
        throw err;
      },
    );
    return this.preflighted;
  }

  /**
   * One tiny chat request asking whether the endpoint serves `model` (a model its list does not name). The endpoint
   * receives it, so it is recorded like any request (notes.preflight), against the step that needed the preflight.
   */
  private async ping(model: string, signal: AbortSignal, hooks: CallHooks): Promise<void> {
    const { config } = this.options;
    const messages: Message[] = [
      { role: 'system', content: 'You are the Preflight of Dossier. Reply with the word OK.' },
      { role: 'user', content: 'OK?' },
    ];
    const maxTokens = 16;
    const promptTokens = countMessageTokens(messages);
    const ticket = await hooks.beforeRequest({
      model,
      tokens: promptTokens + maxTokens,
      costUsd: costUsd(config.prices, model, promptTokens, maxTokens),
    });
    await this.options.limiter.acquire();
    const started = performance.now();
    const record = (r: Omit<RequestRecord, 'latencyMs' | 'notes'>) =>
      hooks.afterRequest(ticket, { ...r, latencyMs: Math.max(0, Math.round(performance.now() - started)), notes: { preflight: true } });
    try {
      const res = await this.client.chat.completions.create(
        { model, messages, max_tokens: maxTokens, temperature: 0 },
        { ...(this.options.testEcho ? { headers: { 'X-Dossier-Step-Key': hooks.stepKey, 'X-Dossier-Call-Id': ticket.id } } : {}), signal },
      );
      const tokensIn = res.usage?.prompt_tokens ?? promptTokens;
      const tokensOut = res.usage?.completion_tokens ?? 0;
      await record({ model, tokensIn, tokensOut, costUsd: costUsd(config.prices, model, tokensIn, tokensOut), outcome: 'ok', error: null });
    } catch (err) {
      const verdict = signal.aborted ? { type: 'timeout', message: `no answer within ${config.timeoutMs} ms` } : classifyRequestError(err);
      await record({
        model,
        tokensIn: 0,
        tokensOut: 0,
        costUsd: 0,
        outcome: 'error',
        error: `preflight ${verdict.type}: ${verdict.message}`,
      });
      throw err;
    }
  }

  /** A reply, fresh or reused, with what the caller must know first: was it cut at the output cap, or a refusal. */
  private accept(ticket: RequestTicket, span: Span | undefined, started: number, reply: RecordedAnswer, maxTokens: number): Sent {
    const answer: Answer = { ...reply, recorded: reply };
    const refusal = reply.refusal ?? (reply.finishReason === 'content_filter' ? 'the provider filtered the content' : null);
    // A reply cut at the output cap is completed locally if it can be; asking again would give the same cut.
    return { answer, ticket, span, started, cut: reply.finishReason === 'length', refusal, maxTokens };
  }

  private startSpan(role: string, cfg: RoleModelConfig, stepKey: string, messages: Message[], maxTokens: number): Span {
    const span = this.tracer.startSpan(`chat ${cfg.model}`, {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': this.provider,
        'gen_ai.request.model': cfg.model,
        'gen_ai.request.temperature': cfg.temperature,
        'gen_ai.request.max_tokens': maxTokens,
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
    notes?: LlmCallNotes,
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
      ...(notes && Object.keys(notes).length > 0 ? { notes } : {}),
    });
  }
}

/**
 * The strict JSON Schemas sent, per output schema, with and without limits: converted once, not on every request
 * (decision 0143). Only ever serialised (the request hash, the SDK), never changed, so one object serves every request.
 */
const wireSchemas = { limits: new WeakMap<z.ZodType, Record<string, unknown>>(), bare: new WeakMap<z.ZodType, Record<string, unknown>>() };

function wireSchema(schema: z.ZodType, limits: boolean): Record<string, unknown> {
  const cache = limits ? wireSchemas.limits : wireSchemas.bare;
  let json = cache.get(schema);
  if (!json) {
    json = strictJsonSchema(schema, { limits });
    cache.set(schema, json);
  }
  return json;
}

function responseFormat(mode: WireMode, name: string, schema: z.ZodType): Record<string, unknown> {
  switch (mode) {
    case 'json_schema':
      return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: wireSchema(schema, true) } } };
    case 'json_schema_bare':
      return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: wireSchema(schema, false) } } };
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

interface Cleaned<O> {
  output: O;
  dropped: number;
  /** What the text gate removed (decision 0041). */
  hygiene: HygieneCounts;
}

type Verdict<O> =
  | { output: O; repairs: LocalRepair[]; trimmed: number }
  | { error: string; cleaned: Cleaned<O> | null; repairs: LocalRepair[]; trimmed: number; askInParts?: boolean };

/**
 * A reply judged against the role: JSON (mended locally where it can be), brought into the schema, grounded in the
 * input, validated, and its references checked. Either the output, or what is wrong with it (for the repair request)
 * and the answer without its bad references when the schema holds.
 */
function evaluate<I, O>(role: AgentRole<I, O>, input: I, content: string): Verdict<O> {
  const parsed = parseJsonReply(content);
  if (!parsed.ok) return { error: parsed.error, cleaned: null, repairs: [], trimmed: 0 };
  const conformed = conformToSchema(role.output, parsed.value);
  const repairs = [...new Set([...parsed.repairs, ...conformed.repairs])];
  const grounded = role.ground ? role.ground(input, conformed.value) : { value: conformed.value, issues: [] };
  const valid = role.output.safeParse(grounded.value);
  if (!valid.success) {
    return {
      error: [...grounded.issues, describeIssues(valid.error)].join('; '),
      cleaned: null,
      repairs,
      trimmed: conformed.trimmed.length,
    };
  }
  const refs = role.check?.(input, valid.data) ?? { issues: [], cleaned: valid.data, dropped: 0 };
  const trimmed = conformed.trimmed.length + (refs.trimmed ?? 0);
  // The text gate (decision 0041) on what the checks kept: its faults go to the repair request like theirs.
  const gated = refs.cleaned === null ? null : gateModelText(role.name, input, refs.cleaned);
  const cleaned = gated === null ? null : role.output.safeParse(gated.output);
  const usable = cleaned?.success ? { output: cleaned.data, dropped: refs.dropped, hygiene: gated?.dropped ?? { ...NO_HYGIENE } } : null;
  const issues = [...grounded.issues, ...refs.issues, ...(gated?.issues ?? [])];
  if (issues.length === 0 && usable) return { output: usable.output, repairs, trimmed };
  const error =
    issues.length > 0
      ? `the answer is not grounded in the data given: ${issues.slice(0, 10).join('; ')}`
      : 'the answer leaves nothing usable';
  return { error, cleaned: usable, repairs, trimmed, ...(refs.askInParts ? { askInParts: true } : {}) };
}

function hygieneCount(h: HygieneCounts): number {
  return h.leaked + h.duplicates + h.fragments;
}

function describeIssues(error: z.ZodError): string {
  return `the JSON does not match the schema: ${error.issues
    .slice(0, 10)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ')}`;
}

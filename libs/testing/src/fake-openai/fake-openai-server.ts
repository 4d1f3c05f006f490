import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEncoding, type Tiktoken } from 'js-tiktoken';
import { conceptEmbedding } from './concepts';
import type { ChatBody, FakeChatRequest, FakeOpenAICounts, FakeOpenAIOptions, FakeReply } from './fake-openai-types';
import { Misbehaviour } from './misbehaviour';
import { RealisticModel, type Corruption, type DefectKind } from './realistic-model';

let encoder: Tiktoken | undefined;
function tokens(text: string): number {
  encoder ??= getEncoding('o200k_base');
  // As a real server: "<|endoftext|>" in a message is text, not a control token.
  return encoder.encode(text, [], []).length;
}

/**
 * What /v1/models lists unless told: the model names the tests configure, so the engine's preflight (decision 0042)
 * finds them without a chat request.
 */
const DEFAULT_MODELS = ['fake-model', 'fake-judge', 'fake-writer-2', 'fake-embedder'];

/** Persona in the system prompt ("You are the Section Writer of Dossier") → role name (sectionWriter). */
function roleFromSystemPrompt(body: ChatBody): string {
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  const persona = /You are the (.+?) of Dossier/.exec(system)?.[1];
  if (!persona) return 'unknown';
  const words = persona
    .replace(/[^A-Za-z ]/g, ' ')
    .trim()
    .split(/\s+/);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

/**
 * A local OpenAI-compatible server for tests: /v1/chat/completions (response_format json_schema / json_object,
 * tools), /v1/embeddings, /v1/models. It answers each role correctly by default and can be scripted, per role,
 * to answer with malformed JSON, reasoning blocks, refusals, 429 with Retry-After, 500, or a stall. It counts
 * requests and tokens (reported in `usage`, counted with o200k_base), records request bodies, and can enforce a
 * requests-per-second limit while measuring the highest rate it saw. With `latencyMs` it takes its time like a real
 * model, and records how each request ended (answered with a status, or abandoned by the client): its own
 * account of what was paid for, to hold against the caller's records.
 */
export class FakeOpenAIServer {
  readonly requests: FakeChatRequest[] = [];
  readonly counts: FakeOpenAICounts = {
    chatRequests: 0,
    embeddingRequests: 0,
    modelListRequests: 0,
    promptTokens: 0,
    completionTokens: 0,
    embeddingTokens: 0,
    rateLimited: 0,
    sizeRefusals: 0,
    maxPerSecond: 0,
    byRole: {},
  };
  private readonly scripts = new Map<string, FakeReply[]>();
  private readonly realistic: RealisticModel | null;
  /** The misbehaviour at a rate, when asked for (issue 24); its `counts` say how often each fault was served. */
  readonly misbehaviour: Misbehaviour | null;
  private readonly arrivals: number[] = [];
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The chat request each open response answers, so its outcome is recorded whatever path answers it. */
  private readonly pending = new WeakMap<ServerResponse, FakeChatRequest>();
  private url = '';

  constructor(private readonly options: FakeOpenAIOptions) {
    this.realistic = options.realistic ? new RealisticModel(options.realistic) : null;
    this.misbehaviour = options.misbehaviour ? new Misbehaviour(options.misbehaviour) : null;
    this.server = createServer((req, res) => {
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      this.handle(req, res).catch((err: unknown) => this.send(res, 500, { error: { message: String(err), type: 'server_error' } }));
    });
  }

  /** Realistic mode: every sentence the model made unsupported by its citations (ground truth for verification). */
  get corruptions(): readonly Corruption[] {
    return this.realistic?.corruptions ?? [];
  }

  /** Realistic mode: how many answers (or sentences) got each defect. */
  get defects(): Readonly<Record<DefectKind, number>> | null {
    return this.realistic?.defects ?? null;
  }

  /** The base URL clients use (OPENAI_BASE_URL), ending in /v1. */
  get baseUrl(): string {
    return this.url;
  }

  async start(): Promise<this> {
    // The tokenizer takes seconds to load: before listening, not inside the first request (which would time out).
    tokens('');
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const res of this.open) res.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next requests of `role` ('*' for any role) get these replies, in order; then the default answer again. */
  script(role: string, ...replies: FakeReply[]): void {
    this.scripts.set(role, [...(this.scripts.get(role) ?? []), ...replies]);
  }

  /** Requests whose messages were sent for `stepKey` (the X-Dossier-Step-Key header). */
  requestsForStep(stepKey: string): FakeChatRequest[] {
    return this.requests.filter((r) => r.stepKey === stepKey);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').replace(/\?.*$/, '');
    if (this.options.apiKey !== undefined && req.headers['authorization'] !== `Bearer ${this.options.apiKey}`) {
      return this.send(res, 401, {
        error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    if (req.method === 'GET' && path === '/v1/models' && !this.options.noModelList) {
      this.counts.modelListRequests++;
      const models = this.options.models ?? DEFAULT_MODELS;
      return this.send(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) });
    }
    if (req.method !== 'POST')
      return this.send(res, 404, { error: { message: `No route ${req.method} ${path}`, type: 'invalid_request_error' } });
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.send(res, 400, { error: { message: 'Request body is not JSON', type: 'invalid_request_error' } });
    }
    if (path === '/v1/embeddings') {
      const gone = this.options.embeddingsFailAfter !== undefined && this.counts.embeddingRequests >= this.options.embeddingsFailAfter;
      if (this.options.noEmbeddings || gone) {
        this.counts.embeddingRequests++;
        return this.send(res, 404, { error: { message: `No route POST ${path}`, type: 'invalid_request_error' } });
      }
      return this.embeddings(res, body as { model: string; input: string | string[] });
    }
    if (path === '/v1/chat/completions') return this.chat(req, res, body as ChatBody);
    return this.send(res, 404, { error: { message: `No route POST ${path}`, type: 'invalid_request_error' } });
  }

  private async chat(req: IncomingMessage, res: ServerResponse, body: ChatBody): Promise<void> {
    const now = performance.now();
    this.counts.chatRequests++;
    this.arrivals.push(now);
    const window = this.arrivals.filter((t) => t > now - 1000).length;
    this.counts.maxPerSecond = Math.max(this.counts.maxPerSecond, window);
    const role = body.dossier_test?.role ?? roleFromSystemPrompt(body);
    const stepHeader = req.headers['x-dossier-step-key'];
    const callHeader = req.headers['x-dossier-call-id'];
    const request: FakeChatRequest = {
      role,
      body,
      stepKey: typeof stepHeader === 'string' ? stepHeader : undefined,
      callId: typeof callHeader === 'string' ? callHeader : undefined,
      input: body.dossier_test?.input,
      receivedAt: Date.now(),
    };
    this.requests.push(request);
    this.pending.set(res, request);
    this.counts.byRole[role] = (this.counts.byRole[role] ?? 0) + 1;

    if (!Array.isArray(body.messages) || typeof body.model !== 'string') {
      return this.send(res, 400, { error: { message: 'model and messages are required', type: 'invalid_request_error' } });
    }
    if (body.stream)
      return this.send(res, 400, { error: { message: 'stream is not supported by this fake', type: 'invalid_request_error' } });
    if (this.options.requestsPerSecond !== undefined && window > this.options.requestsPerSecond) {
      this.counts.rateLimited++;
      return this.send(
        res,
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '1' },
      );
    }
    if (body.response_format?.type === 'json_schema' && this.options.rejectJsonSchema) {
      return this.send(res, 400, {
        error: {
          message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          type: 'invalid_request_error',
          param: 'response_format',
        },
      });
    }
    const refused = (this.options.rejectSchemaKeywords ?? []).find((k) =>
      JSON.stringify(body.response_format?.json_schema?.schema ?? {}).includes(`"${k}"`),
    );
    if (body.response_format?.type === 'json_schema' && refused) {
      return this.send(res, 400, {
        error: {
          message: `Invalid schema for response_format '${body.response_format.json_schema?.name}': '${refused}' is not permitted.`,
          type: 'invalid_request_error',
          param: 'response_format',
        },
      });
    }

    const tooLarge = this.sizeRefusal(body);
    if (tooLarge) return this.send(res, 400, tooLarge);
    const key = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const fault = this.misbehaviour?.httpFault(key) ?? null;
    if (fault?.kind === 'status') {
      return this.send(
        res,
        fault.status,
        { error: { message: fault.message, type: fault.status === 429 ? 'requests' : 'server_error' } },
        fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {},
      );
    }
    if (fault?.kind === 'hang' && !(await this.wait(res, fault.ms))) return this.aborted(res);
    if (this.options.gate) await this.options.gate(request);
    const latency = this.options.latencyMs?.(request) ?? 0;
    if (latency > 0 && !(await this.wait(res, latency))) return this.aborted(res);
    const reply = this.nextReply(role);
    // The engine's preflight asks whether a model it did not find in the list is served (decision 0042).
    if (role === 'preflight' && reply.kind === 'answer') return this.complete(res, body, 'OK');
    switch (reply.kind) {
      case 'status':
        return this.send(
          res,
          reply.status,
          { error: { message: reply.message ?? `Scripted ${reply.status}`, type: reply.status === 429 ? 'requests' : 'server_error' } },
          reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {},
        );
      case 'echo_headers': {
        const lines = Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`);
        const auth = String(req.headers['authorization'] ?? '');
        const message = [
          `Upstream rejected the request (${reply.status}). Request headers:`,
          ...lines,
          `as JSON: ${JSON.stringify({ authorization: auth })}`,
          `credential: ${auth.replace(/^Bearer\s+/i, '')}`,
        ].join('\n');
        return this.send(res, reply.status, { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } });
      }
      case 'stall':
        if (!(await this.wait(res, reply.ms))) return this.aborted(res);
        return this.complete(res, body, JSON.stringify(this.options.answer(request)));
      case 'refusal':
        return this.complete(res, body, null, { refusal: reply.text });
      case 'raw':
        return this.complete(res, body, reply.content);
      case 'json':
        return this.complete(res, body, JSON.stringify(reply.value));
      case 'think': {
        const tag = reply.tag ?? 'think';
        return this.complete(res, body, `<${tag}>${reply.reasoning}</${tag}>\n${JSON.stringify(this.options.answer(request))}`);
      }
      case 'tool_call':
        return this.complete(res, body, null, { toolCall: { name: reply.name, arguments: JSON.stringify(reply.arguments) } });
      case 'answer': {
        if (this.misbehaviour) {
          const answer = this.options.answer(request);
          const odd = this.misbehaviour.content(key, role, answer);
          return odd
            ? this.complete(res, body, odd.content, odd.finish ? { finish: odd.finish } : {})
            : this.complete(res, body, JSON.stringify(answer));
        }
        if (!this.realistic) return this.complete(res, body, JSON.stringify(this.options.answer(request)));
        const answer = this.realistic.respond(request, () => this.options.answer(request));
        if ('refusal' in answer) return this.complete(res, body, null, { refusal: answer.refusal });
        return this.complete(res, body, answer.content, { finish: answer.finish });
      }
    }
  }

  /** The refusal a server with `contextTokens` gives a request too large for it, in its style; null when it fits. */
  private sizeRefusal(body: ChatBody): unknown {
    const window = this.options.contextTokens;
    if (window === undefined) return null;
    const prompt = Math.ceil(body.messages.reduce((n, m) => n + 3 + tokens(m.content ?? ''), 3) * (this.options.tokenizerRatio ?? 1));
    const completion = body.max_completion_tokens ?? body.max_tokens ?? 0;
    if (prompt + completion <= window) return null;
    this.counts.sizeRefusals++;
    if (this.options.contextStyle === 'llamacpp') {
      return {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
        },
      };
    }
    const message =
      prompt > window
        ? `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`
        : `This model's maximum context length is ${window} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;
    return { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
  }

  /** The client hung up before an answer was sent. */
  private aborted(res: ServerResponse): void {
    const request = this.pending.get(res);
    if (!request) return;
    request.outcome = 'aborted';
    request.answeredAt = Date.now();
    this.pending.delete(res);
  }

  /** Waits `ms`; false if the client hung up meanwhile (or the server stopped). */
  private wait(res: ServerResponse, ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve(!res.destroyed && !res.writableEnded);
      }, ms);
      this.timers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(false);
      });
    });
  }

  private nextReply(role: string): FakeReply {
    for (const key of [role, '*']) {
      const queue = this.scripts.get(key);
      if (queue && queue.length > 0) return queue.shift()!;
    }
    return { kind: 'answer' };
  }

  private complete(
    res: ServerResponse,
    body: ChatBody,
    content: string | null,
    extra: { refusal?: string; toolCall?: { name: string; arguments: string }; finish?: 'stop' | 'length' } = {},
  ): void {
    const promptTokens = body.messages.reduce((n, m) => n + 3 + tokens(m.content ?? ''), 3);
    const limit = body.max_completion_tokens ?? body.max_tokens;
    let text = content;
    let finish = extra.toolCall ? 'tool_calls' : (extra.finish ?? 'stop');
    let completionTokens = tokens(text ?? extra.refusal ?? extra.toolCall?.arguments ?? '');
    if (text !== null && limit !== undefined && completionTokens > limit) {
      // Cut at the limit, as a real server does: the JSON is then incomplete.
      encoder ??= getEncoding('o200k_base');
      text = encoder.decode(encoder.encode(text).slice(0, limit));
      completionTokens = limit;
      finish = 'length';
    }
    this.counts.promptTokens += promptTokens;
    this.counts.completionTokens += completionTokens;
    const request = this.pending.get(res);
    if (request) request.usage = { promptTokens, completionTokens };
    const message: Record<string, unknown> = { role: 'assistant', content: text, refusal: extra.refusal ?? null };
    if (extra.toolCall) message['tool_calls'] = [{ id: `call_${this.counts.chatRequests}`, type: 'function', function: extra.toolCall }];
    this.send(res, 200, {
      id: `chatcmpl-${this.counts.chatRequests}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  private embeddings(res: ServerResponse, body: { model: string; input: string | string[] }): void {
    this.counts.embeddingRequests++;
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const dim = this.options.embeddingDimension ?? 64;
    const used = inputs.reduce((n, t) => n + tokens(String(t)), 0);
    this.counts.embeddingTokens += used;
    const data = inputs.map((text, index) => {
      if (this.realistic) return { object: 'embedding', index, embedding: conceptEmbedding(String(text), dim) };
      const seed = createHash('sha256').update(String(text)).digest();
      const v = Array.from({ length: dim }, (_, i) => (seed[i % seed.length]! - 127.5) / 127.5);
      const norm = Math.hypot(...v) || 1;
      return { object: 'embedding', index, embedding: v.map((x) => x / norm) };
    });
    this.send(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: used, total_tokens: used } });
  }

  private send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    const request = this.pending.get(res);
    if (request) {
      request.outcome = res.destroyed || res.writableEnded ? 'aborted' : status;
      request.answeredAt = Date.now();
      this.pending.delete(res);
    }
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

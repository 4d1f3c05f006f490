import type { MisbehaviourOptions } from './misbehaviour';
import type { RealisticModelOptions } from './realistic-options';

/** One recorded chat request, as the fake server received it. */
export interface FakeChatRequest {
  /** The agent role: from the test echo when sent, else from the system prompt's persona. */
  role: string;
  body: ChatBody;
  /** Headers of interest (lower-case names). */
  stepKey: string | undefined;
  /** The llm_calls row the engine reserved for this request (X-Dossier-Call-Id, test echo mode only). */
  callId: string | undefined;
  /** The role input the engine echoed (tests only), when it did. */
  input: unknown;
  receivedAt: number;
  /**
   * How the request ended: the HTTP status the server sent, or 'aborted' when the client hung up before the
   * answer was ready (nothing was generated, so nothing is owed). Unset while the request is in flight.
   */
  outcome?: number | 'aborted';
  /** When the status was sent. */
  answeredAt?: number;
  /** The usage the server reported with a 200 answer: what the request costs. */
  usage?: { promptTokens: number; completionTokens: number };
}

export interface ChatBody {
  model: string;
  messages: { role: string; content: string | null }[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
  tools?: { type: 'function'; function: { name: string; parameters?: unknown } }[];
  stream?: boolean;
  dossier_test?: { role: string; input: unknown };
}

/** How the fake answers one request. */
export type FakeReply =
  /** The default answer (the `answer` option), as JSON content. */
  | { kind: 'answer' }
  /** This value as JSON content. */
  | { kind: 'json'; value: unknown }
  /** This exact content (e.g. malformed JSON). */
  | { kind: 'raw'; content: string }
  /** The default answer wrapped in a reasoning block, as reasoning models do. */
  | { kind: 'think'; reasoning: string; tag?: string }
  /** A refusal (the `refusal` field, content null). */
  | { kind: 'refusal'; text: string }
  /** An HTTP error, optionally with Retry-After. */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /**
   * An HTTP error whose message echoes the request's headers, `Authorization` included, in the three forms
   * proxies use (header lines, a JSON object, the bare value): what the redaction of upstream error text must catch.
   */
  | { kind: 'echo_headers'; status: number }
  /** No answer for `ms` (past the client's timeout), then the default answer. */
  | { kind: 'stall'; ms: number }
  /** A tool call of the named function with these arguments. */
  | { kind: 'tool_call'; name: string; arguments: unknown };

export interface FakeOpenAIOptions {
  /** The correct answer for a request (e.g. the role's offline output from the echoed input). */
  answer: (request: FakeChatRequest) => unknown;
  /** At most this many requests in any one-second window; more get 429 with Retry-After (and are counted). */
  requestsPerSecond?: number;
  /** Answer 400 to `json_schema` response formats, like endpoints without structured outputs. */
  rejectJsonSchema?: boolean;
  /** Answer 400 to a json_schema response format that uses any of these keywords (e.g. maxLength), as some providers do. */
  rejectSchemaKeywords?: string[];
  /** Model ids listed by /v1/models. */
  models?: string[];
  /** Dimension of the fake embeddings. */
  embeddingDimension?: number;
  /**
   * Simulated generation time of a chat request, in ms (after arrival, before the answer). A client that
   * hangs up meanwhile gets no answer and owes nothing: its request ends 'aborted'.
   */
  latencyMs?: (request: FakeChatRequest) => number;
  /** A request is answered only once this resolves (then its latency runs): a test holds requests in flight while it looks. */
  gate?: (request: FakeChatRequest) => Promise<void>;
  /**
   * The realistic model (issue 12): every default answer gets defects at these rates (paraphrase, unsupported
   * sentences, wrong ids, over-long fields, fences, truncation, empty lists, refusals…), the verifier judges by
   * comparing sentences with passages, and embeddings carry meaning. Corrupted sentences are in `corruptions`.
   */
  realistic?: RealisticModelOptions;
  /**
   * The model's context window, enforced like real servers do (issue 24): a prompt over it is refused, and so is a
   * prompt plus `max_tokens` over it, with the server's own wording (`contextStyle`). Prompt tokens are counted with
   * o200k_base, like the engine's estimate, times `tokenizerRatio` (default 1: a server with another tokenizer counts more).
   */
  contextTokens?: number;
  /**
   * How a size refusal reads: `openai` (and vLLM) name the window and the request's tokens; `llamacpp` names neither
   * ("the request exceeds the available context size").
   */
  contextStyle?: 'openai' | 'llamacpp';
  tokenizerRatio?: number;
  /** Only this key is accepted (Authorization: Bearer …); any other gets 401 on every route. */
  apiKey?: string;
  /** Answer 404 on GET /v1/models, as some servers do. */
  noModelList?: boolean;
  /** Answer 404 on /v1/embeddings, as chat-only servers do. */
  noEmbeddings?: boolean;
  /** Answer the first N embeddings requests, then 404 on every later one: an embeddings endpoint lost mid-run. */
  embeddingsFailAfter?: number;
  /** Misbehaviours of real endpoints at a rate (issue 24): HTTP faults, hangs, and answers wrong in shape or text. */
  misbehaviour?: MisbehaviourOptions;
}

export interface FakeOpenAICounts {
  /** Every HTTP request to /v1/chat/completions, answered or not. */
  chatRequests: number;
  embeddingRequests: number;
  /** GET /v1/models: the engine's preflight (decision 0042). */
  modelListRequests: number;
  /** Tokens reported in `usage` of answered chat requests. */
  promptTokens: number;
  completionTokens: number;
  embeddingTokens: number;
  /** Requests answered 429 because they went over `requestsPerSecond`. */
  rateLimited: number;
  /** Requests refused 400 as too large for `contextTokens`. */
  sizeRefusals: number;
  /** The most chat requests that arrived within any one-second window. */
  maxPerSecond: number;
  byRole: Record<string, number>;
}

import type { LlmCallNotes } from '@dossier/contracts';
import type { AgentRole } from '../roles/role';
import type { RecordedAnswer } from './recorded-answer';

/** What one role call cost and produced; the runner validates `output` and records the rest in llm_calls. */
export interface EngineCompletion<O> {
  output: O;
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/** One HTTP request to a model, answered or not: one llm_calls row. */
export interface RequestRecord {
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  latencyMs: number;
  /** ok; invalid (answered, output failed validation); refused; error (no usable answer: 429, 5xx, timeout…). */
  outcome: 'ok' | 'invalid' | 'refused' | 'error';
  error: string | null;
  /** The answer, when the model gave one (kept so the request is never paid for again). */
  answer?: RecordedAnswer;
  /** What happened to the answer beyond its outcome: local repairs, trims, dropped ids, a role call given up. */
  notes?: LlmCallNotes;
}

/** What a request is expected to cost at most, for the budget check before it is sent. */
export interface RequestEstimate {
  model: string;
  tokens: number;
  costUsd: number;
}

/**
 * The runner's side of one role call, for engines that talk to a model: the budget is checked (and the
 * estimate reserved) before every request, and every request is recorded after it. `beforeRequest`
 * throws `BudgetExhaustedSignal` when a budget has run out.
 */
export interface CallHooks {
  readonly stepKey: string;
  /**
   * The answer this step already received (and paid for) for the identical request, if any: a step that runs
   * again after its process died mid-step reuses it instead of sending the request again.
   */
  recordedAnswer?(requestHash: string): Promise<{ id: string; answer: RecordedAnswer } | null>;
  beforeRequest(estimate: RequestEstimate, requestHash?: string): Promise<RequestTicket>;
  afterRequest(ticket: RequestTicket, record: RequestRecord): Promise<void>;
}

/** A reservation made by `beforeRequest`, settled by `afterRequest`. */
export interface RequestTicket {
  readonly id: string;
  /** The request was not sent: its recorded answer was reused (nothing new to record). */
  readonly replayed?: boolean;
}

/**
 * Something that can play any agent role: the offline NLP engine or the OpenAI-compatible engine.
 * `complete` receives input the runner has already validated. Engines with `recordsRequests` record every
 * request through the hooks themselves; the runner records the others' calls.
 */
export interface Engine {
  readonly name: string;
  /** The model recorded for calls that fail before the engine reports one. */
  readonly model: string;
  readonly recordsRequests?: boolean;
  complete<I, O>(role: AgentRole<I, O>, input: I, hooks?: CallHooks): Promise<EngineCompletion<O>>;
}

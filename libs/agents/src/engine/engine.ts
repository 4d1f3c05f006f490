import type { AgentRole } from '../roles/role';

/** What one role call cost and produced; the runner validates `output` and records the rest in llm_calls. */
export interface EngineCompletion<O> {
  output: O;
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/**
 * Something that can play any agent role: the offline NLP engine now, an OpenAI-compatible engine later.
 * `complete` receives input the runner has already validated; it must not record the call itself.
 */
export interface Engine {
  readonly name: string;
  /** The model recorded for calls that fail before the engine reports one. */
  readonly model: string;
  complete<I, O>(role: AgentRole<I, O>, input: I): Promise<EngineCompletion<O>>;
}

import type { z } from 'zod';
import type { RecordedKind } from '@dossier/contracts';

/** One external call an agent makes (a model request, an embedding batch): what identifies it, and a name for people. */
export interface ExternalCall {
  kind: RecordedKind;
  /** JSON of everything that decides the answer (a model request: the SHA-256 of its body). */
  request: unknown;
  name: string;
}

/**
 * Port: the run's recording of external answers (decision 0030). Inside a step the adapter (@dossier/agent-store,
 * over @dossier/db's recording scope) records every answer the run consumes and, in a replay, answers from the
 * replayed run's recording instead of the network. Outside one — and wherever no adapter is passed (evals, tests of
 * a role) — every call goes live and nothing is recorded. Passed explicitly: `AgentRunnerOptions.answers`,
 * `OpenAIEmbedderOptions.answers`, and in Nest the EXTERNAL_ANSWERS provider of AgentsModule.
 */
export interface ExternalAnswers {
  /** The replayed run's answer when this step replays; null when it goes live. Throws when a replay lacks it. */
  replayed<T>(call: ExternalCall, schema: z.ZodType<T>): Promise<{ answer: T } | null>;
  /** Records a live answer of the current step. */
  record(call: ExternalCall, answer: unknown): Promise<void>;
  /** Replayed, or made live by `live` and recorded. */
  recorded<T>(call: ExternalCall, schema: z.ZodType<T>, live: () => Promise<T>): Promise<T>;
}

/** No recording: every call goes live. What a runner or embedder built without an adapter uses. */
export const LIVE_ANSWERS: ExternalAnswers = {
  replayed: () => Promise.resolve(null),
  record: () => Promise.resolve(),
  recorded: (_call, _schema, live) => live(),
};

/** Nest token of the process's ExternalAnswers, provided and exported by AgentsModule (the embedder of claims injects it). */
export const EXTERNAL_ANSWERS = Symbol('EXTERNAL_ANSWERS');

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
 * replayed run's recording instead of the network. Outside one — and in a process with no adapter (evals, tests of
 * a role) — every call goes live and nothing is recorded.
 */
export interface ExternalAnswers {
  /** The replayed run's answer when this step replays; null when it goes live. Throws when a replay lacks it. */
  replayed<T>(call: ExternalCall, schema: z.ZodType<T>): Promise<{ answer: T } | null>;
  /** Records a live answer of the current step. */
  record(call: ExternalCall, answer: unknown): Promise<void>;
  /** Replayed, or made live by `live` and recorded. */
  recorded<T>(call: ExternalCall, schema: z.ZodType<T>, live: () => Promise<T>): Promise<T>;
}

const LIVE: ExternalAnswers = {
  replayed: () => Promise.resolve(null),
  record: () => Promise.resolve(),
  recorded: (_call, _schema, live) => live(),
};

let current: ExternalAnswers = LIVE;

/**
 * Lends the process's recording to the agents. The recording is ambient (a step's scope, set by the step runner), so
 * the port is one per process, not one per runner: the adapter provides it when a worker builds its agent store.
 */
export function provideExternalAnswers(answers: ExternalAnswers): void {
  current = answers;
}

export function externalAnswers(): ExternalAnswers {
  return current;
}

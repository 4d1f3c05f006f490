import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../prisma.service';

/**
 * The step whose external calls are being recorded (or replayed), set by the step runner around a handler. The
 * boundaries that make external calls — the model client's hooks, the search providers, the page fetcher, the corpus
 * document read, robots.txt — read it, so stages never know about recording (decision 0030). Outside a step (ingest,
 * evals calling roles directly) there is no scope and calls go out unrecorded.
 */
export interface RecordingScope {
  db: Db;
  tenantId: string;
  runId: string;
  /** node.iteration.shard: the step key without the run id, equal in a run and its replays. */
  step: string;
  node: string;
  /** The run this one replays, and the node from which calls go live again. */
  replay?: { of: string; from?: string | undefined };
  /** Web search answers are asked again instead of taken from the tenant's cache. */
  freshSearch: boolean;
}

const storage = new AsyncLocalStorage<RecordingScope>();

/** Runs `fn` with `scope` as the recording scope of every external call it makes. */
export function withRecordingScope<T>(scope: RecordingScope, fn: () => T): T {
  return storage.run(scope, fn);
}

export function currentRecordingScope(): RecordingScope | undefined {
  return storage.getStore();
}

/** `runId.node.iteration.shard` → `node.iteration.shard` (step keys hold no other dots: node names are snake_case). */
export function stepOfKey(stepKey: string): string {
  const dot = stepKey.indexOf('.');
  return dot < 0 ? stepKey : stepKey.slice(dot + 1);
}

import type { AgentRole } from '../roles/role';
import type { Engine, EngineCompletion } from './engine';

export const OFFLINE_MODEL = 'offline-nlp-1';

/** "Tokens" of the offline engine: whitespace-separated words of the JSON, so budgets see comparable numbers. */
export function countWords(value: unknown): number {
  const json = JSON.stringify(value) ?? '';
  return json.split(/\s+/).filter((w) => w.length > 0).length;
}

/** Deterministic classical NLP: runs the role's offline implementation; no network, no cost. */
export class OfflineEngine implements Engine {
  readonly name = 'offline';
  readonly model = OFFLINE_MODEL;

  async complete<I, O>(role: AgentRole<I, O>, input: I): Promise<EngineCompletion<O>> {
    const output = role.offline(input);
    return { output, model: OFFLINE_MODEL, tokensIn: countWords(input), tokensOut: countWords(output), costUsd: 0 };
  }
}

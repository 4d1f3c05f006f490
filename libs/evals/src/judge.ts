import { randomUUID } from 'node:crypto';
import {
  AgentRunner,
  openAIConfigFromEnv,
  openAIEngineFromEnv,
  verifySentences,
  type LlmCallLog,
  type SentenceToVerify,
} from '@dossier/agents';

/** The verifier model reading cited sentences against their excerpts, for the eval's citation support. */
export interface Judge {
  /** The model, pinned for the whole eval and printed beside every figure it produced. */
  readonly model: string;
  /** Per sentence: did the judge find it supported by the excerpts it cites. */
  judge(sentences: readonly SentenceToVerify[], runId: string): Promise<boolean[]>;
  usage(): { calls: number; tokensIn: number; tokensOut: number };
}

interface JudgeCallRow {
  tokensIn: number;
  tokensOut: number;
}

/**
 * The judge's calls are the eval's, not the run's: they are counted here in memory rather than added to the run's
 * llm_calls, so the run's own model calls and tokens stay what the run spent. No recorded answer is ever reused:
 * every judgement is fresh.
 */
function memoryCallLog(rows: JudgeCallRow[]): LlmCallLog {
  return {
    record: async (call) => {
      rows.push({ tokensIn: call.tokensIn, tokensOut: call.tokensOut });
    },
    answered: async () => [],
  };
}

/** Sentences per verifier request: a report's cited sentences in a few calls, each prompt of a sane size. */
const JUDGE_BATCH = 20;

/**
 * The judge of an openai eval: the verifier role (its prompt, temperature 0, OPENAI_MODEL_VERIFIER or OPENAI_MODEL)
 * through the same OpenAI-compatible engine the runs use. Throws LlmConfigError naming the missing setting.
 */
export function openAIJudgeFromEnv(env: Record<string, string | undefined>): Judge {
  const model = openAIConfigFromEnv(env).roles.verifier.model;
  const rows: JudgeCallRow[] = [];
  const runner = new AgentRunner(memoryCallLog(rows), { engine: openAIEngineFromEnv(env, null) });
  const tenantId = randomUUID();
  return {
    model,
    async judge(sentences, runId) {
      const verdicts: boolean[] = [];
      for (let i = 0; i < sentences.length; i += JUDGE_BATCH) {
        const checks = await verifySentences(runner, sentences.slice(i, i + JUDGE_BATCH), { tenantId, runId, stepKey: 'eval.judge' });
        verdicts.push(...checks.map((c) => c.judge === 'supported'));
      }
      return verdicts;
    },
    usage: () => ({
      calls: rows.length,
      tokensIn: rows.reduce((n, r) => n + r.tokensIn, 0),
      tokensOut: rows.reduce((n, r) => n + r.tokensOut, 0),
    }),
  };
}

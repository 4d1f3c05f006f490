import type { LlmCallNotes } from '@dossier/contracts';
import type { RecordedAnswer } from '../engine/recorded-answer';

/** One row of llm_calls: a role call, or one model request of it. */
export interface LlmCallRecord {
  tenantId: string;
  runId: string;
  stepKey: string;
  role: string;
  engine: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  latencyMs: number;
  outcome: string;
  error: string | null;
  /** What was asked (recorded-answer.ts): a request with a hash can have its answer reused by its step. */
  requestHash?: string | null;
  answer?: RecordedAnswer;
  notes?: LlmCallNotes;
}

/** Which recorded answers a step may reuse: its own, for the identical request, with one of these outcomes. */
export interface AnsweredQuery {
  tenantId: string;
  runId: string;
  stepKey: string;
  requestHash: string;
  outcomes: readonly string[];
  limit: number;
}

/**
 * Port: where agent calls are recorded (llm_calls). The agents library knows no database; a worker lends it an
 * adapter (PrismaAgentStore in @dossier/agent-store), a test or the eval judge an in-memory one.
 */
export interface LlmCallLog {
  record(call: LlmCallRecord): Promise<void>;
  /** The matching calls, oldest first, at most `limit`; `answer` is unparsed (the runner validates it). */
  answered(query: AnsweredQuery): Promise<{ id: string; answer: unknown }[]>;
}

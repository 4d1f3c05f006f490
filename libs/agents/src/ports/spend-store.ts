import type { BudgetKind } from '@dossier/contracts';
import type { LlmCallRecord } from './llm-call-log';

/** Tokens and dollars. */
export interface Spend {
  tokens: number;
  costUsd: number;
}

/** A run's model spend as the ledger decides on it: settled requests, and reservations still in flight. */
export interface RunSpend {
  spent: Spend;
  inFlight: Spend;
  anyInFlight: boolean;
}

/** A request's reservation: an llm_calls row with outcome `pending` and the estimate as its figures. */
export type PendingCall = Omit<LlmCallRecord, 'tokensOut' | 'latencyMs' | 'outcome' | 'error' | 'answer' | 'notes'>;

/** What the ledger decides under the lock: insert the reservation, wait for requests in flight, or refuse. */
export type SpendDecision = 'reserve' | 'wait' | { exhausted: BudgetKind };

/** A request's real figures, replacing its reservation. */
export type SettledCall = Pick<
  LlmCallRecord,
  'model' | 'tokensIn' | 'tokensOut' | 'costUsd' | 'latencyMs' | 'outcome' | 'error' | 'answer' | 'notes'
>;

/**
 * Port: the run's spend, kept with its calls (llm_calls). `reserveChecked` is the one operation that must be
 * atomic across processes: under a lock per run it reads the run's model spend (engines other than offline;
 * reservations older than `staleBefore` left out), asks `decide`, and inserts the reservation when told to,
 * before the lock is released. The budget rules live in BudgetLedger, not in an adapter.
 */
export interface SpendStore {
  reserveChecked(
    pending: PendingCall,
    staleBefore: Date,
    decide: (spend: RunSpend) => SpendDecision,
  ): Promise<{ id: string } | Exclude<SpendDecision, 'reserve'>>;
  /** A reservation with no budget to check: no lock. */
  reserve(pending: PendingCall): Promise<{ id: string }>;
  /** Replaces the reservation's figures; may throw a retryable error (the ledger retries those). */
  settle(tenantId: string, id: string, settled: SettledCall): Promise<void>;
}

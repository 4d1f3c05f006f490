// Ports: what the agents need of persistence, implemented outside this library (docs/decisions/0034).
export type { LlmCallLog, LlmCallRecord, AnsweredQuery } from './llm-call-log';
export type { RunSettings, RunSettingsSource } from './run-settings';
export type { SpendStore, RunSpend, Spend, PendingCall, SettledCall, SpendDecision } from './spend-store';
export type { ExternalAnswers, ExternalCall } from './external-answers';
export { EXTERNAL_ANSWERS, LIVE_ANSWERS } from './external-answers';

import { z } from 'zod';

export const RunStatus = z.enum(['queued', 'running', 'awaiting_approval', 'completed', 'failed', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatus>;
/** A run in one of these states takes no more steps until it is resumed. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export const ExecutionStatus = z.enum(['running', 'completed', 'failed', 'skipped']);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

export const OutboxStatus = z.enum(['pending', 'sent']);
export type OutboxStatus = z.infer<typeof OutboxStatus>;

/** Why the research loop ended; written in the report's method section. */
export const StopReason = z.enum(['max_iterations', 'budget_exhausted', 'low_information_gain', 'nothing_left_to_ask']);
export type StopReason = z.infer<typeof StopReason>;

import { RetryableError, UnrecoverableError } from '@dossier/errors';

/** The input given to an agent role does not match its schema: a caller bug, retrying cannot help. */
export class AgentInputError extends UnrecoverableError {
  readonly code = 'agent_input_invalid';
}

/** The engine answered with output that does not match the role's schema (after any repair the engine tried). */
export class AgentOutputError extends UnrecoverableError {
  readonly code = 'agent_output_invalid';
}

/**
 * The role call failed and recording that failure in llm_calls failed too (the database is unreachable). Retryable:
 * the next attempt repeats the call and records it; the role's own error is kept in `details.roleError`.
 */
export class AgentCallRecordError extends RetryableError {
  readonly code = 'agent_call_not_recorded';
}

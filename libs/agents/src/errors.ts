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

/** The model refused the task (a refusal message or a content filter). Retrying the same prompt will not help. */
export class AgentRefusalError extends UnrecoverableError {
  readonly code = 'agent_refused';
}

/**
 * The model provider did not answer usefully after every retry (429, 5xx, timeouts, connection errors).
 * Retryable: the step is tried again later by the queue, so a provider outage never loses the step.
 */
export class LlmUnavailableError extends RetryableError {
  readonly code = 'llm_unavailable';
}

/** The provider rejected the request itself (400, 401, 403, 404…): a configuration or prompt problem. */
export class LlmRequestError extends UnrecoverableError {
  readonly code = 'llm_request_rejected';
}

/** A run asked for the openai engine but this worker's environment does not configure it. */
export class LlmConfigError extends UnrecoverableError {
  readonly code = 'llm_config_invalid';
}

/**
 * A request cannot be made to fit its model's context window (decision 0040): the smallest useful prompt of a role,
 * or an input that cannot be split, needs more than the window. Names the setting; raised before the request is sent.
 */
export class ContextWindowError extends UnrecoverableError {
  readonly code = 'llm_context_too_small';
}

/**
 * The preflight of the openai engine (decision 0042) found the endpoint unusable before the run's first paid request:
 * not reachable, the key refused, a model or the embeddings endpoint unknown. Names the setting in
 * `details.variables`; nothing was spent.
 */
export class PreflightError extends UnrecoverableError {
  readonly code = 'llm_preflight_failed';
}

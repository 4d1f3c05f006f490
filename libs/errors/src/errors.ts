import { DossierError, RetryableError, UnrecoverableError } from './dossier-error';

export class ConfigError extends UnrecoverableError {
  readonly code = 'config_invalid';
}

/** A step job whose payload does not match the step-job contract (or names no known node). */
export class InvalidStepPayloadError extends UnrecoverableError {
  readonly code = 'step_payload_invalid';
}

/** A handler returned a result that does not match its node's result contract. */
export class InvalidStepResultError extends UnrecoverableError {
  readonly code = 'step_result_invalid';
}

/** Boot-time: a service owns nodes with no handler, or with two. */
export class HandlerRegistryError extends UnrecoverableError {
  readonly code = 'handler_registry_invalid';
}

export class RunNotFoundError extends UnrecoverableError {
  readonly code = 'run_not_found';
}

/** The run is not in a state that allows the operation (e.g. resume a running run). */
export class RunStateError extends UnrecoverableError {
  readonly code = 'run_state_conflict';
}

export class GateNotOpenError extends UnrecoverableError {
  readonly code = 'gate_not_open';
}

export class ValidationError extends UnrecoverableError {
  readonly code = 'validation_failed';
}

/** Another worker holds this step right now; try again shortly. */
export class StepBusyError extends RetryableError {
  readonly code = 'step_busy';
}

/** Postgres, Redis or another dependency is unreachable or timed out. */
export class DependencyUnavailableError extends RetryableError {
  readonly code = 'dependency_unavailable';
}

export { DossierError, RetryableError, UnrecoverableError };

/** A stage found the run's persisted state inconsistent with the step it was asked to run. */
export class StageStateError extends UnrecoverableError {
  readonly code = 'stage_state_invalid';
}

/** A run's workflow version that this process does not know (a newer deployment started it, or a bad row). */
export class UnknownWorkflowVersionError extends UnrecoverableError {
  readonly code = 'workflow_version_unknown';
}

/** A step of a node that the run's graph version does not use (a job from another version, or a graph without that edge). */
export class NodeNotInGraphError extends UnrecoverableError {
  readonly code = 'node_not_in_graph';
}

/**
 * A write that must find a row by its unique key did not: it was deleted between an insert that skipped
 * it and the read, or the transaction's snapshot predates it (REPEATABLE READ). Another attempt sees it.
 */
export class WriteConflictError extends RetryableError {
  readonly code = 'write_conflict';
}

/**
 * A replay asked for an external answer its recording does not hold (the request differs from the original's, or the
 * recording has expired). The message names the call; nothing is sent to the network in its place (decision 0030).
 */
export class ReplayAnswerMissingError extends UnrecoverableError {
  readonly code = 'replay_answer_missing';
}

/** A run archive (`dossier import`) that is not one: unreadable, of another format version, or failing its schema. */
export class RunArchiveError extends UnrecoverableError {
  readonly code: string = 'run_archive_invalid';
}

/** An archive file beyond what an import reads: unpacking past the byte cap, or past the reader's time or memory. */
export class RunArchiveTooLargeError extends RunArchiveError {
  override readonly code = 'run_archive_too_large';
}

/**
 * A replayed call that failed when it was recorded (a page that did not load, a provider that answered an error): the
 * replay fails it again, with the recorded reason, so the step takes the path the original took (decision 0030).
 */
export class ReplayedFailureError extends UnrecoverableError {
  readonly code = 'replayed_failure';
}

/** The limits a tenant's policy (or the operator's defaults) sets on what it may have going at once or spend. */
export type TenantLimitName = 'runs_in_progress' | 'spend_per_day' | 'spend_per_month' | 'event_streams_per_key';

/**
 * A tenant (or one of its keys) is at one of its limits (issue 30): the request would start one run too many, spend
 * past the day's or month's allowance, or open one event stream too many. The API answers 429 with `details.limit`
 * naming it and Retry-After: when the day or month turns for spend, a guess for the others (a run or stream ends).
 */
export class TenantLimitError extends UnrecoverableError {
  readonly code = 'limit_reached';
  constructor(
    readonly limit: TenantLimitName,
    message: string,
    readonly retryAfterSeconds: number,
    details: { max: number; current: number },
  ) {
    super(message, { details: { limit, ...details, retryAfterSeconds } });
  }
}

/**
 * The database lacks migrations this build ships: a process of a newer image started before the migration job ran.
 * Not retried by a step; a booting service exits with it, and an init container waits until it clears.
 */
export class SchemaOutdatedError extends UnrecoverableError {
  readonly code = 'schema_outdated';
}

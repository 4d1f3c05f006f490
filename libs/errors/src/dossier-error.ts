import { redactDeep, redactSecrets } from './redact';

export interface DossierErrorOptions {
  cause?: unknown;
  runId?: string;
  details?: Record<string, unknown>;
}

/**
 * The root of every error Dossier raises on purpose. `retryable` is decided by the class, once, so the
 * queue layer never has to guess from a message; `runId` travels with the error into logs and events.
 * The message and details are redacted on construction: they often quote upstream text (a provider's error body).
 */
export abstract class DossierError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
  readonly runId: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, options: DossierErrorOptions = {}) {
    super(redactSecrets(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.runId = options.runId;
    this.details = options.details === undefined ? undefined : redactDeep(options.details);
  }
}

/** Worth another attempt: the same input may succeed later (outage, rate limit, lock held elsewhere). */
export abstract class RetryableError extends DossierError {
  readonly retryable = true;
}

/** Retrying cannot help: bad input, a broken contract, a programming error. The run fails with the reason. */
export abstract class UnrecoverableError extends DossierError {
  readonly retryable = false;
}

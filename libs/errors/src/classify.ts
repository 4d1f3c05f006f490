import { DossierError } from './dossier-error';
import { redactSecrets } from './redact';

export type ErrorClass = 'retryable' | 'unrecoverable';

// Postgres SQLSTATE classes for bad data and broken constraints: the same statement fails again. That
// includes a unique violation (23505, Prisma P2002): every write on a unique key that concurrent callers
// reach is atomic (docs/decisions/0012), so one that still happens is a bug to fix, not a race to retry.
const UNRECOVERABLE_SQLSTATE = /^(22|23|42)[0-9A-Z]{3}$/;
// Postgres SQLSTATE classes that are about the connection or a conflict that a retry resolves.
const RETRYABLE_SQLSTATE = /^(08|53|57P0|40001|40P01|55P03)/;
// Prisma error codes for connection, pool and transaction-conflict failures.
const RETRYABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);
const RETRYABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

function codeOf(err: object): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Decides whether an error is worth retrying. Our own errors say so themselves; schema errors and
 * programming errors (TypeError and friends) and constraint violations are not; infrastructure errors are.
 * An unknown Error is retried: the attempt count bounds it, and losing a run to a blip is worse than one
 * wasted retry. A thrown non-Error value is a programming error: not retried.
 */
export function classifyError(err: unknown, seen: Set<unknown> = new Set()): ErrorClass {
  seen.add(err);
  if (err instanceof DossierError) return err.retryable ? 'retryable' : 'unrecoverable';
  if (!(err instanceof Error)) return 'unrecoverable';
  if (err.name === 'ZodError') return 'unrecoverable';
  if (err instanceof TypeError || err instanceof RangeError || err instanceof SyntaxError || err instanceof ReferenceError) {
    return 'unrecoverable';
  }
  const code = codeOf(err);
  if (code !== undefined) {
    if (RETRYABLE_PRISMA.has(code) || RETRYABLE_ERRNO.has(code) || RETRYABLE_SQLSTATE.test(code)) return 'retryable';
    if (UNRECOVERABLE_SQLSTATE.test(code)) return 'unrecoverable';
    if (/^P[0-9]{4}$/.test(code)) return 'unrecoverable';
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && !seen.has(cause)) return classifyError(cause, seen);
  return 'retryable';
}

/**
 * One line for logs, step records and operators: class name, code and message, never a stack or a
 * secret-bearing object, and redacted (a foreign error's message may quote an upstream body, key included).
 * Internal: a tenant is shown `publicError`, never this.
 */
export function describeError(err: unknown): { name: string; code: string; message: string } {
  if (err instanceof DossierError) return { name: err.name, code: err.code, message: redactSecrets(err.message) };
  if (err instanceof Error) return { name: err.name, code: redactSecrets(codeOf(err) ?? 'error'), message: redactSecrets(err.message) };
  return { name: 'NonError', code: 'error', message: redactSecrets(String(err)) };
}

/** What a tenant may read about a failure: a reason code and a message written for them. */
export interface PublicError {
  code: string;
  message: string;
}

export const INTERNAL_ERROR_MESSAGE = "An internal error stopped this step; the operator's logs have the details under this run's id";
export const TRANSIENT_ERROR_MESSAGE =
  "A temporary failure interrupted this step; the operator's logs have the details under this run's id";

/**
 * The tenant-visible form of an error. Our own errors (DossierError) carry a message written for the caller
 * (redacted on construction); anything else (a database error with its query, a TypeError, a library's
 * exception) is internal text: the tenant gets a reason code and a fixed message, and the text goes to the logs.
 */
export function publicError(err: unknown): PublicError {
  if (err instanceof DossierError) return { code: err.code, message: redactSecrets(err.message) };
  return classifyError(err) === 'retryable'
    ? { code: 'transient_error', message: TRANSIENT_ERROR_MESSAGE }
    : { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE };
}

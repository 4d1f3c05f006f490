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

// What Prisma's driver adapter reports under a generic code (P2010 for raw queries): the connection failures.
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const RETRYABLE_ADAPTER_KINDS = new Set([...UNAVAILABLE_ADAPTER_KINDS, 'TransactionWriteConflict', 'TransactionAlreadyClosed']);
// Prisma codes and SQLSTATE classes that say the database is unreachable, not that the statement is wrong.
const UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0)/;
// Drivers that report a lost connection by message only (pg, ioredis).
const UNAVAILABLE_MESSAGE = /Connection terminated|Connection is closed|Can't reach database server|max retries per request/i;

/**
 * Prisma 7 wraps what the pg driver adapter saw in `meta.driverAdapterError.cause`: `{ kind }`, and for server
 * errors `{ kind: 'postgres', code: SQLSTATE }`. A raw query that fails because the server is down carries only
 * P2010 ("raw query failed") on the outside.
 */
function adapterCause(err: object): { kind: string; code: string | undefined } | undefined {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } }).meta
    ?.driverAdapterError?.cause;
  if (!cause || typeof cause.kind !== 'string') return undefined;
  const code = typeof cause.code === 'string' ? cause.code : typeof cause.originalCode === 'string' ? cause.originalCode : undefined;
  return { kind: cause.kind, code };
}

/**
 * True when the error says a dependency (Postgres, Redis) cannot be reached right now — down, restarting, out of
 * connections — rather than that the request or the code is wrong. An API answers these 503 (try again), not 500.
 */
export function isDependencyUnavailable(err: unknown, seen: Set<unknown> = new Set()): boolean {
  seen.add(err);
  if (err instanceof DossierError) return err.code === 'dependency_unavailable';
  if (!(err instanceof Error)) return false;
  const adapter = adapterCause(err);
  if (adapter && (UNAVAILABLE_ADAPTER_KINDS.has(adapter.kind) || (adapter.code !== undefined && UNAVAILABLE_SQLSTATE.test(adapter.code)))) {
    return true;
  }
  const code = codeOf(err);
  if (code !== undefined && (UNAVAILABLE_PRISMA.has(code) || RETRYABLE_ERRNO.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (UNAVAILABLE_MESSAGE.test(err.message)) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && !seen.has(cause) && isDependencyUnavailable(cause, seen);
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
  const adapter = adapterCause(err);
  if (adapter) {
    if (RETRYABLE_ADAPTER_KINDS.has(adapter.kind)) return 'retryable';
    if (adapter.code !== undefined && RETRYABLE_SQLSTATE.test(adapter.code)) return 'retryable';
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

// A conflict or a timeout of the database that the same request resolves when tried again.
const TRANSIENT_PRISMA = new Set(['P2028', 'P2034']);
const TRANSIENT_SQLSTATE = /^(40001|40P01|55P03)$/;
const TRANSIENT_ADAPTER_KINDS = new Set(['TransactionWriteConflict', 'TransactionAlreadyClosed']);

/**
 * True when the same request is expected to succeed in a moment: a dependency is unreachable, or the database
 * reported a serialization conflict, a deadlock or an expired transaction (a slow database under load). An API
 * answers these 503 with Retry-After; nothing was committed.
 */
export function isTransient(err: unknown, seen: Set<unknown> = new Set()): boolean {
  if (isDependencyUnavailable(err)) return true;
  seen.add(err);
  if (!(err instanceof Error) || err instanceof DossierError) return false;
  const adapter = adapterCause(err);
  if (adapter && (TRANSIENT_ADAPTER_KINDS.has(adapter.kind) || (adapter.code !== undefined && TRANSIENT_SQLSTATE.test(adapter.code)))) {
    return true;
  }
  const code = codeOf(err);
  if (code !== undefined && (TRANSIENT_PRISMA.has(code) || TRANSIENT_SQLSTATE.test(code))) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && !seen.has(cause) && isTransient(cause, seen);
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

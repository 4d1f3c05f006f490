import { DossierError } from './dossier-error';

export type ErrorClass = 'retryable' | 'unrecoverable';

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
 * programming errors (TypeError and friends) are not; infrastructure errors are. Anything unknown is
 * retried: the attempt count bounds it, and losing a run to a blip is worse than one wasted retry.
 */
export function classifyError(err: unknown): ErrorClass {
  if (err instanceof DossierError) return err.retryable ? 'retryable' : 'unrecoverable';
  if (!(err instanceof Error)) return 'unrecoverable';
  if (err.name === 'ZodError') return 'unrecoverable';
  if (err instanceof TypeError || err instanceof RangeError || err instanceof SyntaxError || err instanceof ReferenceError) {
    return 'unrecoverable';
  }
  const code = codeOf(err);
  if (code !== undefined) {
    if (RETRYABLE_PRISMA.has(code) || RETRYABLE_ERRNO.has(code) || RETRYABLE_SQLSTATE.test(code)) return 'retryable';
    if (/^P[0-9]{4}$/.test(code)) return 'unrecoverable';
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && cause !== err) return classifyError(cause);
  return 'retryable';
}

/** One line for logs and run events: class name, code and message, never a stack or a secret-bearing object. */
export function describeError(err: unknown): { name: string; code: string; message: string } {
  if (err instanceof DossierError) return { name: err.name, code: err.code, message: err.message };
  if (err instanceof Error) return { name: err.name, code: codeOf(err) ?? 'error', message: err.message };
  return { name: 'NonError', code: 'error', message: String(err) };
}

import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { parseRetryAfter, redactSecrets } from '@dossier/errors';

export interface ErrorVerdict {
  /** Worth another attempt after a wait (429, 408, 409, 5xx, timeouts, dropped connections). */
  retryable: boolean;
  /** What the provider asked us to wait, if it said. */
  retryAfterMs: number | undefined;
  /** `error.type` of the span: the HTTP status or the error class. */
  type: string;
  status: number | undefined;
  message: string;
}

/**
 * Classifies an error of one request. The message is redacted here, where it leaves the SDK: an endpoint's
 * error body may echo the request's `Authorization` header (proxies do), and the message goes to llm_calls,
 * spans, logs and the step's error.
 */
export function classifyRequestError(err: unknown): ErrorVerdict {
  const verdict = verdictOf(err);
  return { ...verdict, message: redactSecrets(verdict.message) };
}

function verdictOf(err: unknown): ErrorVerdict {
  if (err instanceof APIUserAbortError)
    return { retryable: false, retryAfterMs: undefined, type: 'aborted', status: undefined, message: err.message };
  if (err instanceof APIConnectionError) {
    // APIConnectionTimeoutError is a subclass: a stalled server is retried like a dropped connection.
    return {
      retryable: true,
      retryAfterMs: undefined,
      type: err.constructor.name === 'APIConnectionTimeoutError' ? 'timeout' : 'connection_error',
      status: undefined,
      message: err.message,
    };
  }
  if (err instanceof APIError) {
    const status = err.status;
    const headers = err.headers;
    // OpenAI also sends retry-after-ms; Retry-After (seconds or an HTTP date) is the standard one.
    const ms = headers?.get('retry-after-ms');
    const retryAfterMs = ms && /^\d+(\.\d+)?$/.test(ms) ? Math.ceil(Number(ms)) : parseRetryAfter(headers?.get('retry-after'));
    const retryable = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, retryAfterMs, type: String(status ?? 'api_error'), status, message: err.message };
  }
  return {
    retryable: false,
    retryAfterMs: undefined,
    type: err instanceof Error ? err.constructor.name : 'unknown',
    status: undefined,
    message: String(err),
  };
}

/** A 400 about the response format: the endpoint does not support that structured-output mode. */
export function rejectsResponseFormat(verdict: ErrorVerdict): boolean {
  return verdict.status === 400 && /response_format|json_schema|json_object|structured|schema/i.test(verdict.message);
}

/** How much of the provider's own words an error message (a step's failure, which the tenant reads) quotes. */
const MAX_PROVIDER_TEXT = 200;

/**
 * The start of a provider's error message, for the error a step fails with: its first line, cut short. The
 * whole text (redacted) goes to llm_calls and the span, for the operator; a proxy's echo of the request
 * (headers, internal addresses) stays there.
 */
export function providerSaid(message: string): string {
  const first = (message.split(/\r?\n/, 1)[0] ?? '').trim();
  return first.length > MAX_PROVIDER_TEXT ? `${first.slice(0, MAX_PROVIDER_TEXT)}…` : first;
}

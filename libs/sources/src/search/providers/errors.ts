import { DossierError, RetryableError, UnrecoverableError } from '@dossier/errors';

/**
 * Errors of the web search providers. Messages name the provider, the endpoint (host and path only) and
 * the HTTP status; they never carry a key, a query string or request headers (see `redactSecrets` in @dossier/errors).
 */
interface ProviderErrorOptions {
  provider: string;
  status?: number;
  attempts?: number;
  cause?: unknown;
}

function detailsOf(o: ProviderErrorOptions): Record<string, unknown> {
  return {
    provider: o.provider,
    ...(o.status === undefined ? {} : { status: o.status }),
    ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
  };
}

/** The provider refused the credentials (401/403, or its own "invalid token" answer). Retrying cannot help. */
export class SearchAuthError extends UnrecoverableError {
  readonly code = 'search_auth_failed';
  readonly provider: string;
  readonly status: number | undefined;
  /** The environment variable the operator should check. */
  readonly credential: string;

  constructor(message: string, options: ProviderErrorOptions & { credential: string }) {
    super(message, { cause: options.cause, details: { ...detailsOf(options), credential: options.credential } });
    this.provider = options.provider;
    this.status = options.status;
    this.credential = options.credential;
  }
}

/** 429 that outlasted our retries, or asked for a longer wait than we sleep inline: retry the step later. */
export class SearchRateLimitedError extends RetryableError {
  readonly code = 'search_rate_limited';
  readonly provider: string;
  /** How long the provider asked us to wait, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ProviderErrorOptions & { retryAfterMs: number | undefined }) {
    super(message, { cause: options.cause, details: { ...detailsOf(options), retryAfterMs: options.retryAfterMs } });
    this.provider = options.provider;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The provider failed the request: 5xx, a timeout or a network error (retryable), or a 4xx other than
 * auth and rate limit (our request is wrong: unrecoverable). `retryable` is decided per instance.
 */
export class SearchProviderError extends DossierError {
  readonly code = 'search_provider_failed';
  readonly retryable: boolean;
  readonly provider: string;
  readonly status: number | undefined;

  constructor(message: string, options: ProviderErrorOptions & { retryable: boolean }) {
    super(message, { cause: options.cause, details: { ...detailsOf(options), retryable: options.retryable } });
    this.retryable = options.retryable;
    this.provider = options.provider;
    this.status = options.status;
  }
}

/** A 2xx answer that is not JSON or does not match the provider's documented schema: a broken contract. */
export class SearchResponseError extends UnrecoverableError {
  readonly code = 'search_response_invalid';
  readonly provider: string;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, { cause: options.cause, details: detailsOf(options) });
    this.provider = options.provider;
  }
}

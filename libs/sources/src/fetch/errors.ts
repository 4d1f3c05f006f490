import { DossierError, RetryableError, UnrecoverableError } from '@dossier/errors';

/**
 * Every failure of a fetch is one of these: each carries the URL it was about (the URL of the hop that
 * failed, which after a redirect is not the one first asked for) and decides its own retryability.
 */
type Extra = Record<string, unknown>;

function options(url: string, extra: Extra, cause?: unknown) {
  return { details: { url, ...extra }, ...(cause === undefined ? {} : { cause }) };
}

/** Not a URL, or one we never fetch as written (e.g. with credentials in it). */
export class InvalidFetchUrlError extends UnrecoverableError {
  readonly code = 'fetch_invalid_url';
  constructor(
    readonly url: string,
    reason: string,
    cause?: unknown,
  ) {
    super(`invalid URL ${JSON.stringify(url)}: ${reason}`, options(url, { reason }, cause));
  }
}

/** Only http: and https: are fetched; file:, gopher:, data:, ftp: and the rest are refused. */
export class BlockedSchemeError extends UnrecoverableError {
  readonly code = 'fetch_blocked_scheme';
  constructor(
    readonly url: string,
    readonly scheme: string,
  ) {
    super(`refused to fetch ${url}: scheme ${scheme} is not allowed (only http: and https:)`, options(url, { scheme }));
  }
}

export class BlockedPortError extends UnrecoverableError {
  readonly code = 'fetch_blocked_port';
  constructor(
    readonly url: string,
    readonly port: number,
  ) {
    super(`refused to fetch ${url}: port ${port} is not allowed by the fetch policy`, options(url, { port }));
  }
}

/** The host is, or resolves to, an address the fetcher must never connect to (SSRF guard). */
export class BlockedAddressError extends UnrecoverableError {
  readonly code = 'fetch_blocked_address';
  constructor(
    readonly url: string,
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`refused to fetch ${url}: host ${host} resolves to ${address} (${reason})`, options(url, { host, address, reason }));
  }
}

/** The name does not exist (NXDOMAIN) or has no address: retrying will not create it. */
export class HostNotFoundError extends UnrecoverableError {
  readonly code = 'fetch_host_not_found';
  constructor(
    readonly url: string,
    readonly host: string,
    cause?: unknown,
  ) {
    super(`cannot fetch ${url}: host ${host} not found`, options(url, { host }, cause));
  }
}

/** Connection refused or reset, DNS server failure, network unreachable: may work later. */
export class FetchNetworkError extends RetryableError {
  readonly code = 'fetch_network_error';
  constructor(
    readonly url: string,
    message: string,
    cause?: unknown,
  ) {
    super(`cannot fetch ${url}: ${message}`, options(url, {}, cause));
  }
}

/** The server's certificate or TLS handshake is unacceptable: retrying gives the same certificate. */
export class FetchTlsError extends UnrecoverableError {
  readonly code = 'fetch_tls_error';
  constructor(
    readonly url: string,
    message: string,
    cause?: unknown,
  ) {
    super(`cannot fetch ${url}: TLS failure: ${message}`, options(url, {}, cause));
  }
}

/** Connecting, waiting for headers, or the whole fetch took longer than the policy allows. */
export class FetchTimeoutError extends RetryableError {
  readonly code = 'fetch_timeout';
  constructor(
    readonly url: string,
    readonly phase: 'connect' | 'headers' | 'body' | 'total',
    readonly timeoutMs: number,
    cause?: unknown,
  ) {
    super(`fetch of ${url} timed out (${phase}, ${timeoutMs} ms)`, options(url, { phase, timeoutMs }, cause));
  }
}

export class TooManyRedirectsError extends UnrecoverableError {
  readonly code = 'fetch_too_many_redirects';
  constructor(
    readonly url: string,
    readonly maxRedirects: number,
  ) {
    super(`fetch of ${url} followed more than ${maxRedirects} redirects`, options(url, { maxRedirects }));
  }
}

/**
 * The server answered with a status that is not content. One class for one concept, so callers can
 * catch "the server said no" in one place; whether to retry follows from the status, decided here once:
 * 429 and 5xx are worth retrying (after `retryAfterMs` when the server said so), any other status is not.
 * (It extends DossierError directly because its retryability depends on the status, which neither
 * RetryableError nor UnrecoverableError can express.)
 */
export class FetchHttpError extends DossierError {
  readonly code = 'fetch_http_error';
  readonly retryable: boolean;
  constructor(
    readonly url: string,
    readonly status: number,
    readonly retryAfterMs: number | null = null,
  ) {
    super(
      `fetch of ${url} failed: HTTP ${status}${retryAfterMs === null ? '' : ` (retry after ${retryAfterMs} ms)`}`,
      options(url, { status, retryAfterMs }),
    );
    this.retryable = status === 429 || status >= 500;
  }
}

/** The response's media type is not on the policy's allowlist. */
export class UnsupportedContentTypeError extends UnrecoverableError {
  readonly code = 'fetch_unsupported_content_type';
  constructor(
    readonly url: string,
    readonly contentType: string,
  ) {
    super(
      `refused content of ${url}: content type ${contentType === '' ? '(none)' : contentType} is not allowed`,
      options(url, { contentType }),
    );
  }
}

/** A Content-Encoding the fetcher cannot decode (it asks for identity, gzip, deflate or br only). */
export class UnsupportedContentEncodingError extends UnrecoverableError {
  readonly code = 'fetch_unsupported_content_encoding';
  constructor(
    readonly url: string,
    readonly contentEncoding: string,
  ) {
    super(`refused content of ${url}: content encoding ${contentEncoding} is not supported`, options(url, { contentEncoding }));
  }
}

/** A body declared as text that is binary (NUL bytes near the start): not the document it claims to be. */
export class BinaryContentError extends UnrecoverableError {
  readonly code = 'fetch_binary_content';
  constructor(
    readonly url: string,
    readonly contentType: string,
  ) {
    super(`refused content of ${url}: declared ${contentType} but the body is binary`, options(url, { contentType }));
  }
}

/** The body does not decode under its Content-Encoding (corrupt gzip, deflate or br data). */
export class ContentDecodingError extends UnrecoverableError {
  readonly code = 'fetch_content_decoding_failed';
  constructor(
    readonly url: string,
    readonly contentEncoding: string,
    cause?: unknown,
  ) {
    super(`refused content of ${url}: the body is not valid ${contentEncoding} data`, options(url, { contentEncoding }, cause));
  }
}

import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request } from 'undici';
import { ConfigError, DossierError, parseRetryAfter } from '@dossier/errors';
import { environment } from '@dossier/config';
import { isForbiddenAddress } from './address-policy';
import {
  BinaryContentError,
  BlockedAddressError,
  BlockedPortError,
  BlockedSchemeError,
  ContentDecodingError,
  FetchHttpError,
  FetchNetworkError,
  FetchTimeoutError,
  FetchTlsError,
  HostNotFoundError,
  InvalidFetchUrlError,
  TooManyRedirectsError,
  UnsupportedContentEncodingError,
  UnsupportedContentTypeError,
} from './errors';
import { FetchPolicy, type FetchPolicyInput } from './fetch-policy';
import { headerValue, parseContentType, type HeaderValue } from './http-headers';
import { TestAllowlist } from './test-allowlist';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → every address it resolves to. Injected in tests; the default asks the system resolver. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface SafeFetcherDeps {
  resolve?: Resolver;
}

export interface FetchedPage {
  /** The URL as asked for. */
  requestedUrl: string;
  /** The URL the body came from, after redirects. */
  url: string;
  status: number;
  /** Lower-case media type without parameters, e.g. `text/html`. */
  contentType: string;
  /** The charset the Content-Type header declared, lower case; null when it declared none. */
  charset: string | null;
  /** The body (decompressed), at most `policy.maxBytes` long. */
  bytes: Uint8Array;
  /** True when the body was longer than `policy.maxBytes` and was cut there. */
  truncated: boolean;
  fetchedAt: Date;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const SNIFF_BYTES = 1024;
const DNS_NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ESERVFAIL',
  'ECONNREFUSED',
  'EREFUSED',
  'ETIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'HPE_INVALID_CONSTANT',
  'HPE_INVALID_HEADER_TOKEN',
  'HPE_INVALID_STATUS',
]);
const TIMEOUT_PHASES: Readonly<Record<string, 'connect' | 'headers' | 'body'>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

const systemResolve: Resolver = async (host) => {
  // `order: 'verbatim'` (the successor of `verbatim: true`): the resolver's own order, every address.
  const answers = await dnsLookup(host, { all: true, order: 'verbatim' });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** One hop, checked: where to connect, and the only addresses the connection may use. */
interface CheckedTarget {
  url: URL;
  hostname: string;
  port: number;
  addresses: ResolvedAddress[];
}

/**
 * Fetches http(s) pages without letting a URL reach the machine's own network (SSRF guard):
 *
 * - only http: and https:, no credentials in the URL, ports from the policy;
 * - the host is resolved once per hop and EVERY address checked (loopback, private, link-local,
 *   unique-local, multicast, unspecified, metadata, IPv4-mapped... see isForbiddenAddress); numeric hosts
 *   in any spelling are normalised by the WHATWG URL parser before the check;
 * - the connection is pinned to the checked addresses: the undici Agent of each hop gets a `lookup` that
 *   returns them and nothing else, so a second DNS answer (rebinding) is never used, while the Host header
 *   and TLS SNI stay the original host name;
 * - redirects are followed by hand (every hop re-checked), at most `maxRedirects`;
 * - one deadline for the whole fetch plus connect/headers/body timeouts; the body is read as a stream and
 *   cut at `maxBytes`; the media type must be allowed; a "text" body with NUL bytes is refused.
 */
export class SafeFetcher {
  readonly policy: FetchPolicy;
  private readonly resolve: Resolver;
  private readonly allowlist: TestAllowlist;

  constructor(policy: FetchPolicyInput = {}, deps: SafeFetcherDeps = {}) {
    this.policy = FetchPolicy.parse(policy);
    this.resolve = deps.resolve ?? systemResolve;
    this.allowlist = new TestAllowlist(this.policy.testAllowlist);
    // Belt and braces with fetchPolicyFromEnv: however the policy was built, the allowlist that opens
    // the SSRF guard exists only under a test runner.
    if (!this.allowlist.isEmpty && environment()['NODE_ENV'] !== 'test') {
      throw new ConfigError('fetch policy testAllowlist is set outside tests (NODE_ENV is not "test"): refusing to open the SSRF guard');
    }
  }

  async fetch(url: string): Promise<FetchedPage> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.policy.timeoutMs);
    let current = url;
    try {
      let target = parseTarget(url);
      for (let redirects = 0; ; redirects++) {
        current = target.href;
        const checked = await abortable(this.check(target), controller.signal);
        const agent = this.pinnedAgent(checked);
        try {
          const response = await request(checked.url, {
            method: 'GET',
            dispatcher: agent,
            signal: controller.signal,
            headers: {
              'user-agent': this.policy.userAgent,
              accept: `${this.policy.allowedContentTypes.join(', ')}, */*;q=0.1`,
              'accept-encoding': 'gzip, deflate, br',
            },
          });
          const location = headerValue(response.headers.location);
          if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
            discard(response.body);
            if (redirects >= this.policy.maxRedirects) throw new TooManyRedirectsError(url, this.policy.maxRedirects);
            target = parseTarget(location, checked.url);
            continue;
          }
          if (response.statusCode < 200 || response.statusCode > 299) {
            discard(response.body);
            throw new FetchHttpError(
              checked.url.href,
              response.statusCode,
              parseRetryAfter(headerValue(response.headers['retry-after'])) ?? null,
            );
          }
          return await this.readPage(url, checked.url, response.statusCode, response.headers, response.body);
        } finally {
          // One agent per hop: its sockets, and the lookup pinned to this hop's addresses, end here. Not
          // awaited: the body is read (or abandoned) already, and closing must not mask the fetch's result.
          agent.destroy().catch((err: unknown) => process.emitWarning(`closing a fetch agent failed: ${String(err)}`));
        }
      }
    } catch (err) {
      throw this.translate(err, current, controller.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Port, DNS, and every resolved address; the result is the only place the connection may go. */
  private async check(url: URL): Promise<CheckedTarget> {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const portAllowed = this.policy.allowedPorts.includes(port);
    if (!portAllowed && !this.allowlist.mentionsPort(port)) throw new BlockedPortError(url.href, port);

    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const literal = isIP(hostname);
    let addresses: ResolvedAddress[];
    if (literal === 4 || literal === 6) addresses = [{ address: hostname, family: literal }];
    else {
      try {
        addresses = await this.resolve(hostname);
      } catch (err) {
        const code = codeOf(err);
        if (code !== undefined && DNS_NOT_FOUND.has(code)) throw new HostNotFoundError(url.href, hostname, err);
        if (code !== undefined && NETWORK_CODES.has(code))
          throw new FetchNetworkError(url.href, `cannot resolve ${hostname} (${code})`, err);
        throw err;
      }
      if (addresses.length === 0) throw new HostNotFoundError(url.href, hostname);
    }

    for (const { address } of addresses) {
      if (this.allowlist.allowsAddressAndPort(address, port)) continue;
      const reason = isForbiddenAddress(address);
      if (reason !== null && !this.allowlist.allowsAddress(address)) throw new BlockedAddressError(url.href, hostname, address, reason);
      if (!portAllowed) throw new BlockedPortError(url.href, port);
    }
    return { url, hostname, port, addresses: addresses.map((a) => ({ address: a.address, family: isIP(a.address) === 6 ? 6 : 4 })) };
  }

  /**
   * An undici Agent whose DNS lookup can only answer with this hop's checked addresses. Node calls it for
   * the host name the socket connects to (IP literals skip it, and were checked as such); a request for
   * any other name is refused rather than resolved.
   */
  private pinnedAgent(target: CheckedTarget): Agent {
    const lookup: LookupFunction = (hostname, options, callback) => {
      if (hostname !== target.hostname) {
        const err = Object.assign(new Error(`pinned lookup refused ${hostname} (expected ${target.hostname})`), { code: 'ENOTFOUND' });
        callback(err, '', 0);
        return;
      }
      const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
      const usable = target.addresses.filter((a) => family === 0 || a.family === family);
      const [first] = usable;
      if (first === undefined) {
        callback(Object.assign(new Error(`no checked IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      } else if (options.all) {
        callback(null, usable);
      } else {
        callback(null, first.address, first.family);
      }
    };
    return new Agent({
      connect: { lookup, timeout: this.policy.connectTimeoutMs },
      headersTimeout: this.policy.timeoutMs,
      bodyTimeout: this.policy.timeoutMs,
      connections: 1,
      // HTTP/1.1 only: one request per hop, nothing to multiplex.
      allowH2: false,
    });
  }

  private async readPage(
    requestedUrl: string,
    url: URL,
    status: number,
    headers: Record<string, HeaderValue>,
    body: Readable,
  ): Promise<FetchedPage> {
    const { mediaType, charset } = parseContentType(headerValue(headers['content-type']));
    if (!this.policy.allowedContentTypes.includes(mediaType)) {
      discard(body);
      throw new UnsupportedContentTypeError(url.href, mediaType);
    }
    const encoding = contentEncoding(headers);
    let read: { bytes: Uint8Array; truncated: boolean };
    try {
      read = await readCapped(decodedBody(url.href, encoding, body), this.policy.maxBytes);
    } catch (err) {
      // zlib's errors (Z_DATA_ERROR, ERR_BROTLI_...): the data is corrupt, and will be on every attempt.
      const code = codeOf(err);
      if (encoding !== '' && code !== undefined && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(code))
        throw new ContentDecodingError(url.href, encoding, err);
      throw err;
    }
    const { bytes, truncated } = read;
    if (mediaType !== 'application/pdf' && looksBinary(bytes, charset)) throw new BinaryContentError(url.href, mediaType);
    return { requestedUrl, url: url.href, status, contentType: mediaType, charset, bytes, truncated, fetchedAt: new Date() };
  }

  /** Errors from undici, the resolver and the deadline → the fetch's typed errors; ours pass through. */
  private translate(err: unknown, url: string, deadlinePassed: boolean): unknown {
    if (err instanceof DossierError) return err;
    if (deadlinePassed) return new FetchTimeoutError(url, 'total', this.policy.timeoutMs, err);
    const code = codeOf(err) ?? codeOf((err as { cause?: unknown } | null)?.cause);
    if (code === undefined) return err;
    const phase = TIMEOUT_PHASES[code];
    if (phase !== undefined) {
      return new FetchTimeoutError(url, phase, phase === 'connect' ? this.policy.connectTimeoutMs : this.policy.timeoutMs, err);
    }
    if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code))
      return new FetchTlsError(url, (err as Error).message, err);
    if (NETWORK_CODES.has(code)) return new FetchNetworkError(url, `${code}: ${(err as Error).message}`, err);
    return err;
  }
}

/** A URL to fetch (relative ones against `base`, for redirects): parseable, http(s), no credentials. */
function parseTarget(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch (err) {
    throw new InvalidFetchUrlError(base === undefined ? text : `${text} (redirect from ${base.href})`, 'not a valid URL', err);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedSchemeError(url.href, url.protocol);
  if (url.username !== '' || url.password !== '') throw new InvalidFetchUrlError(url.href, 'credentials in URLs are not sent');
  url.hash = '';
  return url;
}

/** Drops a response body we will not read (a redirect's, an error page's, a refused one's). */
function discard(body: Readable): void {
  // undici reports an abandoned body as an 'error' (RequestAbortedError): that abort is ours, and nobody
  // reads this body any more, so it is not an error of the fetch.
  body.on('error', () => undefined);
  body.destroy();
}

/** Rejects as soon as the signal aborts: DNS lookups take no signal, and the deadline must still hold. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** The body as the server meant it: gzip/deflate/br undone as a stream, so the size cap counts real bytes. */
function contentEncoding(headers: Record<string, HeaderValue>): string {
  const encoding = (headerValue(headers['content-encoding']) ?? '').trim().toLowerCase();
  return encoding === 'identity' ? '' : encoding;
}

function decodedBody(url: string, encoding: string, body: Readable): Readable {
  const decoder =
    encoding === ''
      ? null
      : encoding === 'gzip' || encoding === 'x-gzip'
        ? createGunzip()
        : encoding === 'deflate'
          ? createInflate()
          : encoding === 'br'
            ? createBrotliDecompress()
            : undefined;
  if (decoder === undefined) {
    discard(body);
    throw new UnsupportedContentEncodingError(url, encoding);
  }
  if (decoder === null) return body;
  body.on('error', (err) => decoder.destroy(err));
  // When the reader stops early (size cap), the decoder is destroyed; the raw body must go with it.
  decoder.on('close', () => discard(body));
  return body.pipe(decoder);
}

/** Reads at most `maxBytes`; if there is more, stops there (closing the stream) and says truncated. */
async function readCapped(stream: Readable, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  // Leaving the loop early (break) destroys the stream, which aborts the rest of the download.
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    const room = maxBytes - length;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      length += room;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    length += chunk.length;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, truncated };
}

/** A text body with NUL bytes in its first KB is binary; UTF-16 text (BOM or declared) legitimately has them. */
function looksBinary(bytes: Uint8Array, charset: string | null): boolean {
  const utf16 =
    (charset?.startsWith('utf-16') ?? false) ||
    (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)));
  return !utf16 && bytes.subarray(0, SNIFF_BYTES).includes(0);
}

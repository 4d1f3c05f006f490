import type { z } from 'zod';
import { backoffMs, parseRetryAfter, redactSecrets } from '@dossier/errors';
import type { RateLimiter } from '@dossier/telemetry';
import { sleep } from '@dossier/telemetry';
import { SearchAuthError, SearchProviderError, SearchRateLimitedError, SearchResponseError } from './errors';
import { describeEndpoint, errorDetail } from './error-detail';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff step for 5xx, timeouts and 429 without a hint; doubles per attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Longest wait a Retry-After may impose inline. A longer one (a spent monthly quota, a 503 for
   * maintenance) is thrown at once (`SearchRateLimitedError` with `retryAfterMs` for a 429), so the queue
   * reschedules the step instead of a worker sleeping on it.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Search answers are a few KB; anything this large is not one. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface HttpJsonRequest<T> {
  /** Provider name, for messages and error details. */
  provider: string;
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  schema: z.ZodType<T>;
  /** The environment variable to name when the provider refuses the credentials. */
  credential: string;
  /** Extra advice for a refused request (e.g. SearXNG's disabled JSON format). */
  authHint?: string;
  /** Values that must never appear in a message (keys, passwords). */
  secrets?: readonly string[];
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Acquired before every attempt, retries included: each one costs the provider's budget. Paused on 429. */
  limiter?: RateLimiter;
  signal?: AbortSignal;
  /** Provider-specific wait hint on 429 (Brave's X-RateLimit-Reset), in ms; combined with Retry-After. */
  rateLimitWaitMs?: (headers: Headers) => number | undefined;
  /** Provider-specific "bad credentials" answers besides 401/403 (Brave: 422 SUBSCRIPTION_TOKEN_INVALID). */
  isAuthFailure?: (status: number, body: string) => boolean;
  fetch?: typeof fetch;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: SearchProviderError | SearchRateLimitedError; waitMs: number };

/**
 * One JSON call with a per-attempt timeout and bounded retries. 429, 408 and 5xx are retried after
 * `Retry-After` (seconds or HTTP date) when the provider sends one, else after exponential backoff;
 * timeouts and network errors after backoff. Redirects are not followed: a custom key header would go
 * with them to another host. The caller's abort is rethrown as is.
 */
export async function httpJson<T>(req: HttpJsonRequest<T>): Promise<T> {
  const policy = retryPolicy(req.retry);
  let last: Attempt<T> | undefined;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (last && !last.ok) await sleep(last.waitMs, req.signal);
    await req.limiter?.acquire(req.signal);
    last = await attemptOnce(req, policy, attempt);
    if (last.ok) return last.value;
    if (last.error instanceof SearchRateLimitedError) {
      // Tell every worker sharing the limiter, also when we give up on this call; a longer wait (a spent
      // monthly quota) is the queue's to schedule, and must not freeze the limiter for weeks.
      await req.limiter?.pauseFor?.(Math.min(last.waitMs, policy.maxRetryAfterMs));
    }
    if (last.waitMs > policy.maxRetryAfterMs) throw last.error;
  }
  if (!last || last.ok) throw new Error('httpJson: maxAttempts must be at least 1');
  throw last.error;
}

function retryPolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const set = Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined);
  return { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(set) };
}

async function attemptOnce<T>(req: HttpJsonRequest<T>, policy: RetryPolicy, attempt: number): Promise<Attempt<T>> {
  const { provider } = req;
  const secrets = req.secrets ?? [];
  const endpoint = `${req.method} ${describeEndpoint(req.url)}`;
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const backoff = backoffMs(attempt, policy.baseDelayMs, policy.maxDelayMs);

  let res: Response;
  let body: string;
  try {
    res = await (req.fetch ?? fetch)(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body === undefined ? {} : { 'content-type': 'application/json' }), ...req.headers },
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      redirect: 'manual',
      signal,
    });
    body = await readCapped(res, provider, endpoint);
  } catch (err) {
    if (req.signal?.aborted) throw req.signal.reason;
    if (err instanceof SearchResponseError) throw err;
    const reason = timeout.aborted ? `timed out after ${timeoutMs} ms` : `network error: ${redactSecrets(messageOf(err), secrets)}`;
    const error = new SearchProviderError(`${provider}: ${endpoint} ${reason} (attempt ${attempt} of ${policy.maxAttempts})`, {
      provider,
      attempts: attempt,
      retryable: true,
      cause: err,
    });
    return { ok: false, error, waitMs: backoff };
  }

  const { status } = res;
  if (status >= 200 && status < 300) return { ok: true, value: parseBody(req, body, endpoint) };

  const detail = errorDetail(body, secrets);
  const said = detail ? `: ${detail}` : '';
  if (status >= 300 && status < 400) {
    const to = res.headers.get('location');
    const where = to ? ` to ${safeLocation(to, req.url)}` : '';
    throw new SearchProviderError(
      `${provider}: ${endpoint} answered with a redirect (HTTP ${status})${where}; set the base URL to the final address`,
      {
        provider,
        status,
        attempts: attempt,
        retryable: false,
      },
    );
  }
  if (status === 401 || status === 403 || req.isAuthFailure?.(status, body)) {
    const hint = req.authHint ? `; ${req.authHint}` : '';
    throw new SearchAuthError(`${provider}: ${endpoint} refused the credentials (HTTP ${status})${said}; check ${req.credential}${hint}`, {
      provider,
      status,
      attempts: attempt,
      credential: req.credential,
    });
  }
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  if (status === 429) {
    const hints = [retryAfter, req.rateLimitWaitMs?.(res.headers)].filter((v): v is number => v !== undefined);
    const asked = hints.length > 0 ? Math.max(...hints) : undefined;
    const when = asked === undefined ? '' : `; retry after ${Math.ceil(asked / 1000)} s`;
    const error = new SearchRateLimitedError(
      `${provider}: ${endpoint} rate limited (HTTP 429)${said}${when} (attempt ${attempt} of ${policy.maxAttempts})`,
      {
        provider,
        status,
        attempts: attempt,
        retryAfterMs: asked,
      },
    );
    return { ok: false, error, waitMs: asked ?? backoff };
  }
  if (status === 408 || status >= 500) {
    const error = new SearchProviderError(
      `${provider}: ${endpoint} failed (HTTP ${status})${said} (attempt ${attempt} of ${policy.maxAttempts})`,
      {
        provider,
        status,
        attempts: attempt,
        retryable: true,
      },
    );
    // A 503 may carry Retry-After too; never sooner than our own backoff.
    return { ok: false, error, waitMs: Math.max(retryAfter ?? 0, backoff) };
  }
  throw new SearchProviderError(`${provider}: ${endpoint} rejected the request (HTTP ${status})${said}`, {
    provider,
    status,
    attempts: attempt,
    retryable: false,
  });
}

function parseBody<T>(req: HttpJsonRequest<T>, body: string, endpoint: string): T {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new SearchResponseError(`${req.provider}: ${endpoint} answered with a body that is not JSON`, {
      provider: req.provider,
      cause: err,
    });
  }
  const parsed = req.schema.safeParse(json);
  if (parsed.success) return parsed.data;
  // Paths and zod's messages only: the values may quote the request.
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  throw new SearchResponseError(`${req.provider}: ${endpoint} answered with an unexpected shape (${issues})`, { provider: req.provider });
}

/** The body as text, refusing more than MAX_RESPONSE_BYTES (read in chunks, so a huge body is not buffered whole). */
async function readCapped(res: Response, provider: string, endpoint: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new SearchResponseError(`${provider}: ${endpoint} answered with more than ${MAX_RESPONSE_BYTES} bytes`, { provider });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function messageOf(err: unknown): string {
  // Duck-typed: fetch's errors come from Node's own realm, where `instanceof Error` of a sandbox (jest) fails.
  const message = (e: unknown) =>
    typeof e === 'object' && e !== null && typeof (e as Error).message === 'string' ? (e as Error).message : undefined;
  const own = message(err) ?? String(err);
  // undici puts the useful part (ECONNREFUSED, ...) in the cause of its "fetch failed".
  const cause = message((err as { cause?: unknown } | null)?.cause);
  return cause ? `${own}: ${cause}` : own;
}

function safeLocation(location: string, base: string): string {
  return URL.canParse(location, base) ? describeEndpoint(new URL(location, base).href) : '(an invalid URL)';
}

import { forgetKey, storedKey } from './session';

/** An answer of the API that is not 2xx: the gateway's `{ error, message, details }` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
  }

  /** Each `details.issues` entry as "path: message" (400s list every problem). */
  get issues(): string[] {
    const issues = (this.details as { issues?: { path?: string; message?: string }[] } | null)?.issues;
    return Array.isArray(issues) ? issues.map((i) => (i.path ? `${i.path}: ${i.message ?? ''}` : (i.message ?? ''))) : [];
  }
}

/** Listeners told when the key stops working (revoked, or another tab signed out): the app goes back to sign-in. */
const unauthorized = new Set<() => void>();
export function onUnauthorized(fn: () => void): () => void {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
}

export function authHeaders(key = storedKey()): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: string; message?: string; details?: unknown };
    return new ApiError(res.status, body.error ?? 'error', body.message ?? res.statusText, body.details ?? null);
  } catch {
    return new ApiError(res.status, 'error', text.slice(0, 300) || res.statusText);
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Use this key instead of the stored one (sign-in checks a key before storing it). */
  key?: string;
}

async function send(method: string, path: string, body: unknown, opts: RequestOptions): Promise<Response> {
  const res = await fetch(path, {
    method,
    headers: {
      ...authHeaders(opts.key ?? storedKey()),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    cache: 'no-store',
    credentials: 'omit',
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401 && !opts.key) {
      forgetKey();
      for (const fn of unauthorized) fn();
    }
    throw err;
  }
  return res;
}

/** A JSON request to the public API. */
export async function api<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, body, opts);
  return (await res.json()) as T;
}

/** A file of the API (a report), as a Blob. */
export async function apiBlob(path: string, opts: RequestOptions = {}): Promise<Blob> {
  return (await send('GET', path, undefined, opts)).blob();
}

/** What an error says to a person: the API's message, never a stack. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.name === 'AbortError') return 'Cancelled';
  return 'The server could not be reached. Check the connection and try again.';
}

import { ConfigError, registerSecret } from '@dossier/errors';
import type { RateLimiter } from '@dossier/telemetry';
import type { RetryPolicy } from './http-json';

/** What every web provider accepts besides its credentials. */
export interface WebProviderOptions {
  /** Provider API root, for proxies and tests (TAVILY_BASE_URL, BRAVE_BASE_URL). */
  baseUrl?: string;
  /** Acquired before every HTTP attempt. Default: an in-process limiter at the provider's default rate. */
  limiter?: RateLimiter;
  /** Per attempt. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

/** A base URL must be absolute http(s); said at construction, naming the variable, not at the first search. */
export function requireHttpUrl(value: string, variable: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new ConfigError(`${variable} must be an absolute http(s) URL`, { details: { variable } });
  }
  return value;
}

/** A provider's key, registered with the shared redaction: it may have been given in code, not in the environment. */
export function requireKey(value: string | undefined, variable: string): string {
  const key = value?.trim();
  if (!key) throw new ConfigError(`${variable} is empty`, { details: { variable } });
  registerSecret(key);
  return key;
}

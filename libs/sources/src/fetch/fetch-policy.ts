import { z } from 'zod';
import { environment, FetchEnv } from '@dossier/config';
import { ConfigError } from '@dossier/errors';
import { parseAllowlistEntry } from './test-allowlist';

const Port = z.number().int().min(1).max(65535);
const MediaType = z
  .string()
  .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i, 'a media type such as text/html')
  .transform((s) => s.toLowerCase());

export const DEFAULT_ALLOWED_CONTENT_TYPES = [
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'application/pdf',
] as const;

/** What the fetcher may do. Every field has a safe default; `FetchPolicy.parse({})` is the production policy. */
export const FetchPolicy = z.object({
  allowedPorts: z.array(Port).min(1).default([80, 443, 8080, 8443]),
  /** Bodies are cut at this many bytes (after decompression) and marked truncated. */
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** The whole fetch, every redirect hop and the body included. */
  timeoutMs: z.number().int().positive().default(15_000),
  connectTimeoutMs: z.number().int().positive().default(5_000),
  maxRedirects: z.number().int().min(0).default(5),
  allowedContentTypes: z
    .array(MediaType)
    .min(1)
    .default([...DEFAULT_ALLOWED_CONTENT_TYPES]),
  userAgent: z.string().min(1).default('DossierBot/0.1 (+https://github.com/dossier)'),
  /**
   * ONLY for tests: addresses the SSRF guard lets through, as `ip:port` / `[ipv6]:port` (that address and
   * port, whatever allowedPorts says) or a CIDR (those addresses, on allowed ports). Empty by default;
   * SafeFetcher refuses a non-empty list unless NODE_ENV is `test`.
   */
  testAllowlist: z.array(z.string().refine((e) => parseAllowlistEntry(e) !== null, 'expected ip:port, [ipv6]:port or a CIDR')).default([]),
});
export type FetchPolicy = z.output<typeof FetchPolicy>;
export type FetchPolicyInput = z.input<typeof FetchPolicy>;

export interface FetchPolicyFromEnvOptions {
  /** Where the loud warning goes when a test allowlist is set outside tests (default: process.emitWarning). */
  warn?: (message: string) => void;
}

/**
 * The fetch policy from environment variables (unset ones keep their defaults). Throws ConfigError for
 * malformed values. DOSSIER_FETCH_TEST_ALLOWLIST is honoured only when NODE_ENV is `test`: anywhere else
 * it would open the SSRF guard, so it is ignored, with a warning that says so.
 */
export function fetchPolicyFromEnv(
  env: Record<string, string | undefined> = environment(),
  opts: FetchPolicyFromEnvOptions = {},
): FetchPolicy {
  const parsed = FetchEnv.safeParse(env);
  if (!parsed.success) throw new ConfigError(`invalid fetch settings: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  const e = parsed.data;
  let testAllowlist: string[] = [];
  if (e.DOSSIER_FETCH_TEST_ALLOWLIST !== undefined && e.DOSSIER_FETCH_TEST_ALLOWLIST.length > 0) {
    if (e.NODE_ENV === 'test') testAllowlist = e.DOSSIER_FETCH_TEST_ALLOWLIST;
    else {
      const warn = opts.warn ?? ((message: string) => process.emitWarning(message, { code: 'DOSSIER_FETCH_TEST_ALLOWLIST_IGNORED' }));
      warn(
        `DOSSIER_FETCH_TEST_ALLOWLIST is set but NODE_ENV is ${JSON.stringify(e.NODE_ENV ?? '')}, not "test": IGNORED. ` +
          'The test allowlist opens the SSRF guard and is never honoured outside tests.',
      );
    }
  }
  const policy = FetchPolicy.safeParse({
    ...(e.DOSSIER_FETCH_MAX_BYTES === undefined ? {} : { maxBytes: e.DOSSIER_FETCH_MAX_BYTES }),
    ...(e.DOSSIER_FETCH_TIMEOUT_MS === undefined ? {} : { timeoutMs: e.DOSSIER_FETCH_TIMEOUT_MS }),
    ...(e.DOSSIER_FETCH_ALLOWED_PORTS === undefined ? {} : { allowedPorts: e.DOSSIER_FETCH_ALLOWED_PORTS }),
    testAllowlist,
  });
  if (!policy.success) throw new ConfigError(`invalid fetch settings: ${z.prettifyError(policy.error)}`, { cause: policy.error });
  return policy.data;
}

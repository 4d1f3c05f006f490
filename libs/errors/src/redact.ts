/**
 * The one place secrets are taken out of text before it is stored, logged or returned: upstream error bodies
 * (a proxy that echoes the `Authorization` header), exception messages, log lines. Every provider, engine, the
 * error description path (`describeError`, `DossierError` messages), the logger and the gateway use it.
 *
 * Two kinds of secret are removed:
 * - the configured ones: every environment variable named like a key, token, secret or password, the
 *   password of every URL-valued variable (DATABASE_URL, REDIS_URL…), the values of OTEL_EXPORTER_OTLP_HEADERS,
 *   and anything a component registered with `registerSecret` (a key given in code, not in the environment);
 * - anything shaped like one: `Bearer …`/`Basic …` credentials, `Authorization:`/`X-API-Key:` header values,
 *   well-known key formats (`sk-…`, `tvly-…`, `dsk_…` and others), `key=…`/`token=…` query parameters and the
 *   password in `scheme://user:password@host`.
 */
export const REDACTED = '[redacted]';

/** Environment variables whose whole value is a secret. */
const SECRET_ENV_NAME = /(?:^|_)(?:API_?KEY|KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|CREDENTIALS?)$/i;
/** Environment variables holding a URL, whose password (if any) is a secret. */
const URL_ENV_NAME = /(?:^|_)(?:URL|URI|DSN|ENDPOINT)$/i;
/** Environment variables holding `name=value,…` header lists (OpenTelemetry exporters): every value is a secret. */
const HEADERS_ENV_NAME = /_HEADERS$/i;
/** Configured values shorter than this are not keys; replacing them would mangle ordinary words. */
const MIN_CONFIGURED_LENGTH = 8;
/** Secrets passed explicitly (a provider's own key) are trusted to be secrets from this length on. */
const MIN_EXPLICIT_LENGTH = 4;

const registered = new Set<string>();

/** A secret that is not in the environment (a key given to a component in code): redacted from now on. */
export function registerSecret(value: string | null | undefined): void {
  if (value && value.length >= MIN_EXPLICIT_LENGTH) registered.add(value);
}

interface SecretCache {
  signature: string;
  secrets: string[];
}
let cache: SecretCache | undefined;

function urlPassword(value: string): string[] {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) return [];
  try {
    const password = new URL(value).password;
    if (!password) return [];
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {
      // a malformed escape: the raw form is still redacted
    }
    return [...new Set([password, decoded])];
  } catch {
    return [];
  }
}

/** The configured secrets of an environment (values long enough to be keys). */
export function configuredSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (SECRET_ENV_NAME.test(name)) found.push(value.trim());
    if (URL_ENV_NAME.test(name)) found.push(...urlPassword(value));
    if (HEADERS_ENV_NAME.test(name)) {
      for (const pair of value.split(',')) {
        const eq = pair.indexOf('=');
        if (eq > 0) found.push(pair.slice(eq + 1).trim());
      }
    }
  }
  return found.filter((s) => s.length >= MIN_CONFIGURED_LENGTH);
}

function currentSecrets(): string[] {
  const fromEnv = configuredSecrets();
  const all = [...new Set([...fromEnv, ...registered])];
  const signature = all.join('\u0000');
  if (cache?.signature !== signature) {
    // Longest first, so a secret that contains another is replaced whole; JSON-escaped forms too (log lines).
    const expanded = new Set<string>();
    for (const s of all) {
      expanded.add(s);
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s) expanded.add(escaped);
    }
    cache = { signature, secrets: [...expanded].sort((a, b) => b.length - a.length) };
  }
  return cache.secrets;
}

// Shapes of credentials, whatever their value. Each keeps what names the credential and replaces the value.
const SHAPES: [RegExp, string][] = [
  // Header lines and JSON/inspect forms: `Authorization: Bearer x`, `"x-api-key":"x"`, `authorization='x'` (\" in JSON log lines).
  [
    /\b(proxy-authorization|authorization|x-api-key|api-key|x-auth-token|x-subscription-token|x-goog-api-key|cookie|set-cookie)(\\?["']?\s*[:=]\s*\\?["']?)(?!\[redacted\])[^"'\\\r\n,}]+/gi,
    `$1$2${REDACTED}`,
  ],
  [/\b(bearer)(\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${REDACTED}`],
  // Basic credentials are base64: a digit, '+', '/' or padding tells them from an English word.
  [/\b(basic)(\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}/gi, `$1$2${REDACTED}`],
  // Well-known key formats: OpenAI and compatible (sk-, sk-proj-, sk-or-), Tavily, Dossier's own, Groq, Hugging Face,
  // GitHub, Slack, AWS access key ids, Google API keys, Stripe-style live/test keys, Replicate.
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\btvly-[A-Za-z0-9_-]{10,}/g, REDACTED],
  [/\bdsk_[0-9a-f]{12}_[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(?:gsk|hf|ghp|gho|ghu|ghs|ghr|r8)_[A-Za-z0-9]{16,}/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [/\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/g, REDACTED],
  // Query parameters and `name=value` pairs that carry credentials.
  [
    /\b(api[_-]?key|apikey|key|access[_-]?token|refresh[_-]?token|id[_-]?token|token|secret|client[_-]?secret|password|passwd|auth|sig|signature)=(?!\[redacted\])[^&#\s"'<>\\]+/gi,
    `$1=${REDACTED}`,
  ],
  // The password of a URL's userinfo.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@"'<>]*):(?!\[redacted\])[^@\s/"'<>]+@/gi, `$1:${REDACTED}@`],
];

/**
 * `text` without secrets: the configured ones (and `extra`, e.g. a provider's own key) replaced wherever they
 * appear, then every credential-shaped substring. Idempotent; never throws.
 */
export function redactSecrets(text: string, extra: readonly (string | null | undefined)[] = []): string {
  if (!text) return text;
  let out = text;
  const explicit = extra.filter((s): s is string => typeof s === 'string' && s.length >= MIN_EXPLICIT_LENGTH);
  const secrets = explicit.length > 0 ? [...new Set([...explicit, ...currentSecrets()])].sort((a, b) => b.length - a.length) : currentSecrets();
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
  return out;
}

/** A JSON-like value with every string in it redacted (objects and arrays copied, other values kept). */
export function redactDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, depth + 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, depth + 1);
  return out as T;
}

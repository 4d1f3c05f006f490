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

/**
 * Reading every environment variable costs more than redacting a log line, so the environment's secrets are
 * read once and again after this long (a process's environment does not change in production; a test that
 * changes it calls `refreshConfiguredSecrets`).
 */
const ENV_REREAD_MS = 5_000;
let fromEnv: { at: number; secrets: string[] } | undefined;
let sorted: { fromEnv: string[]; registeredCount: number; secrets: string[] } | undefined;

/** Reads the environment's secrets again at the next redaction (for tests that set a key after the first one). */
export function refreshConfiguredSecrets(): void {
  fromEnv = undefined;
}

function currentSecrets(): string[] {
  const now = Date.now();
  if (!fromEnv || now - fromEnv.at >= ENV_REREAD_MS) fromEnv = { at: now, secrets: configuredSecrets() };
  if (sorted?.fromEnv !== fromEnv.secrets || sorted.registeredCount !== registered.size) {
    // Longest first, so a secret that contains another is replaced whole; JSON-escaped forms too (log lines).
    const expanded = new Set<string>();
    for (const s of new Set([...fromEnv.secrets, ...registered])) {
      expanded.add(s);
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s) expanded.add(escaped);
    }
    sorted = { fromEnv: fromEnv.secrets, registeredCount: registered.size, secrets: [...expanded].sort((a, b) => b.length - a.length) };
  }
  return sorted.secrets;
}

// Shapes of credentials, whatever their value. Each keeps what names the credential and replaces the value.
const SHAPES: [RegExp, string][] = [
  // Header lines and JSON/inspect forms: `Authorization: Bearer x`, `"x-api-key":"x"`, `authorization='x'` (\" in JSON log lines).
  [
    /\b(proxy-authorization|authorization|x-api-key|api-key|x-auth-token|x-subscription-token|x-goog-api-key|cookie|set-cookie)(\\?["']?\s*[:=]\s*\\?["']?)(?!\s*\[redacted\])[^"'\\\r\n,}]+/gi,
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

/** A cheap test for whether any credential shape could be present: most text (a log line) holds none of these. */
const MAY_HOLD_SHAPE =
  /bearer|basic|auth|api-key|token|cookie|key=|apikey=|secret=|passw|sig|sk-|tvly-|dsk_|gsk_|hf_|gh[pousr]_|r8_|xox|AKIA|AIza|_live_|_test_|:\/\//i;

/**
 * `text` without secrets: the configured ones (and `extra`, e.g. a provider's own key) replaced wherever they
 * appear, then every credential-shaped substring. Idempotent; never throws.
 */
export function redactSecrets(text: string, extra: readonly (string | null | undefined)[] = []): string {
  if (!text) return text;
  let out = text;
  const explicit = extra.filter((s): s is string => typeof s === 'string' && s.length >= MIN_EXPLICIT_LENGTH);
  const secrets =
    explicit.length > 0 ? [...new Set([...explicit, ...currentSecrets()])].sort((a, b) => b.length - a.length) : currentSecrets();
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  if (!MAY_HOLD_SHAPE.test(out)) return out;
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

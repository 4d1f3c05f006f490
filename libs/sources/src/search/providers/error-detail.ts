import { redactSecrets } from '@dossier/errors';

const MAX_DETAIL_CHARS = 300;

/**
 * The provider's own words from an error body, for the error message: Tavily `{detail:{error}}`, Brave
 * `{error:{code,detail}}`, FastAPI `{detail}`, or `{error}`/`{message}`; else the start of the text.
 * Redacted (the shared redaction of @dossier/errors, plus this provider's own `secrets`) and cut short: a body may
 * echo the request, key included.
 */
export function errorDetail(body: string, secrets: readonly string[]): string {
  let detail: string | undefined;
  try {
    detail = pickMessage(JSON.parse(body) as unknown);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err; // not JSON: fall back to the raw text
  }
  const text = (detail ?? body).replace(/\s+/g, ' ').trim();
  const clipped = text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
  return redactSecrets(clipped, secrets);
}

function pickMessage(json: unknown): string | undefined {
  if (typeof json === 'string') return json;
  if (json === null || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  for (const key of ['detail', 'error', 'message']) {
    const v = o[key];
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') {
      const inner = v as Record<string, unknown>;
      const parts = [inner['code'], inner['detail'] ?? inner['error'] ?? inner['message']].filter(
        (p): p is string => typeof p === 'string',
      );
      if (parts.length > 0) return parts.join(': ');
    }
  }
  return undefined;
}

/** `host/path` of an endpoint, for messages: no credentials, no query string (it holds the search text). */
export function describeEndpoint(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

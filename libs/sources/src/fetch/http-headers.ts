/** Small, strict readers for the response headers the fetcher acts on. */

export type HeaderValue = string | string[] | undefined;

/** The first value of a header (undici gives repeated headers as arrays). */
export function headerValue(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface ContentType {
  /** Lower-case `type/subtype` without parameters; '' when the header is missing or malformed. */
  mediaType: string;
  /** The charset parameter, lower case, quotes removed; null when absent. */
  charset: string | null;
}

export function parseContentType(value: string | undefined): ContentType {
  if (value === undefined) return { mediaType: '', charset: null };
  const [type = '', ...params] = value.split(';');
  const mediaType = type.trim().toLowerCase();
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(param);
    if (match?.[1]) charset = match[1].toLowerCase();
  }
  return { mediaType: /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType) ? mediaType : '', charset };
}

/**
 * Retry-After → milliseconds from `now`: delay-seconds ("120") or an HTTP date (a date in the past is 0).
 * Null when absent or unreadable, so the caller's own backoff applies.
 */
export function parseRetryAfter(value: string | undefined, now: Date = new Date()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the HTTP-date shapes (IMF-fixdate and the obsolete RFC 850 / asctime forms all contain a
  // weekday name and a four- or two-digit year); Date.parse alone accepts far looser text.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

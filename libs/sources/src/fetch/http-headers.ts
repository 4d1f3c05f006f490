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

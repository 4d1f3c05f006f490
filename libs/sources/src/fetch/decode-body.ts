import { decodeText } from '../extract/text-decoding';

/** How far into an HTML body to look for a <meta> charset (the HTML standard's prescan reads 1024 bytes; pages in the wild put it later). */
const META_PRESCAN_BYTES = 4096;

/** The charset an HTML body declares in a <meta charset> or <meta http-equiv="Content-Type"> near its start. */
export function metaCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, META_PRESCAN_BYTES));
  const match = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase() ?? null;
}

function hasBom(bytes: Uint8Array): boolean {
  return (
    (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) ||
    (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)))
  );
}

/** The WHATWG encoding a label names (e.g. 'latin1' → 'windows-1252'), or null when Node does not know it. */
export function encodingForLabel(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch (err) {
    // Matched by code: the error is from Node's realm, where `instanceof RangeError` can be false in jest.
    if ((err as { code?: unknown } | null)?.code === 'ERR_ENCODING_NOT_SUPPORTED') return null;
    throw err;
  }
}

/** A body cut at the size cap may end inside a UTF-8 sequence: drop that partial character. */
export function withoutPartialUtf8Tail(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

export interface DecodeBodyOptions {
  /** The charset from the Content-Type header, if any. */
  charset: string | null;
  /** Whether the body is HTML (then a <meta> charset counts when the header names none). */
  html: boolean;
  /** Whether the body was cut at the size cap (its last character may be incomplete). */
  truncated: boolean;
}

/**
 * Body bytes → text, in the HTML standard's order of authority: a byte-order mark, then the Content-Type
 * charset, then (HTML) a <meta> declaration, then the lib's own rules (UTF-8, or windows-1252 when the
 * bytes look like legacy 8-bit text). Legacy encodings (windows-1252, iso-8859-x, shift_jis, euc-kr,
 * koi8-r, gb18030, ...) are decoded by Node's full-ICU TextDecoder. Throws ExtractionError('binary')
 * for binary content.
 */
export function decodeBody(bytes: Uint8Array, opts: DecodeBodyOptions): string {
  const label = opts.charset ?? (opts.html ? metaCharset(bytes) : null);
  const encoding = label === null ? null : encodingForLabel(label);
  if (!hasBom(bytes) && encoding !== null && encoding !== 'utf-8') {
    // A declared legacy charset: decode as declared. Unmappable bytes become U+FFFD, never an exception.
    return new TextDecoder(encoding).decode(bytes);
  }
  return decodeText(opts.truncated ? withoutPartialUtf8Tail(bytes) : bytes);
}

import { ExtractionError } from '../errors';

/** Above this share of undecodable characters a "text" file is treated as binary. */
export const MAX_INVALID_UTF8_RATIO = 0.3;
/** Above this share of C0 control characters (other than tab, CR, LF, FF, VT) a file is binary. */
export const MAX_CONTROL_RATIO = 0.05;

const REPLACEMENT = 0xfffd;

function isBinaryControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0b && code !== 0x0c && code !== 0x0d) || code === 0x7f;
}

function errorCode(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function supportedDecoder(label: string | undefined): InstanceType<typeof TextDecoder> | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label);
  } catch (err) {
    // An unknown charset label in the file: ignore the hint. (Matched by code: the error comes from
    // Node's realm, where `instanceof RangeError` against another realm's class is false, e.g. in jest.)
    if (errorCode(err) === 'ERR_ENCODING_NOT_SUPPORTED') return undefined;
    throw err;
  }
}

/**
 * Bytes of a text file → string, refusing binary data. UTF-8 (with or without BOM) and UTF-16 with BOM are
 * decoded as such. Bytes that are not valid UTF-8 are decoded with the charset the file declares (HTML
 * meta), else as windows-1252 when they look like a legacy 8-bit text (more invalid bytes than valid
 * multi-byte characters), else as UTF-8 with U+FFFD for the bad bytes. The result is deterministic.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
  }
  if (bytes.includes(0)) throw new ExtractionError('binary', 'binary content: the file contains NUL bytes');

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    if (errorCode(err) !== 'ERR_ENCODING_INVALID_ENCODED_DATA') throw err;
    const lenient = new TextDecoder('utf-8').decode(bytes);
    let invalid = 0;
    let multiByte = 0;
    for (let i = 0; i < lenient.length; i++) {
      const code = lenient.charCodeAt(i);
      if (code === REPLACEMENT) invalid++;
      else if (code > 0x7f) multiByte++;
    }
    const ratio = invalid / Math.max(1, lenient.length);
    const declared = supportedDecoder(declaredCharset);
    if (declared !== undefined && declared.encoding !== 'utf-8') text = declared.decode(bytes);
    else if (ratio > MAX_INVALID_UTF8_RATIO) {
      throw new ExtractionError('binary', `binary content: ${percent(ratio)} of the characters are not valid UTF-8`);
    } else if (invalid > multiByte) text = new TextDecoder('windows-1252').decode(bytes);
    else text = lenient;
  }

  let controls = 0;
  for (let i = 0; i < text.length; i++) if (isBinaryControl(text.charCodeAt(i))) controls++;
  const controlRatio = controls / Math.max(1, text.length);
  if (controlRatio > MAX_CONTROL_RATIO) {
    throw new ExtractionError('binary', `binary content: ${percent(controlRatio)} of the characters are control characters`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

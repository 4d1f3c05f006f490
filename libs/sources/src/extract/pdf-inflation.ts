import { inflateSync } from 'node:zlib';
import { ExtractionError } from '../errors';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
const OBJ = Buffer.from(' obj');

/** The dictionary text before a stream keyword: from the object's ` obj` (at most 4 KiB back) to the keyword. */
function dictionaryBefore(bytes: Buffer, at: number): string {
  const from = Math.max(0, at - 4096);
  const obj = bytes.lastIndexOf(OBJ, at);
  return bytes.subarray(obj >= from ? obj : from, at).toString('latin1');
}

/**
 * Refuses a PDF whose Flate streams inflate to more than `cap` bytes, before PDF.js reads it: a 64 KiB file whose
 * content stream inflates to 64 MiB kept PDF.js busy for 19 s. Every `stream … endstream` whose dictionary names
 * FlateDecode is inflated with zlib's own output cap (so the check costs at most `cap` bytes of work, never the
 * bomb's size); images are skipped (their pixels are never text, and a scanned page's are legitimately large).
 * A stream that does not inflate is left to PDF.js to judge. Other filters (LZW, run length) are bounded by the
 * extraction's time limit instead.
 */
export function assertInflationWithin(pdf: Uint8Array, cap: number): void {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let total = 0;
  let at = bytes.indexOf(STREAM);
  while (at >= 0) {
    // `endstream` contains `stream`: only a keyword followed by an end of line starts data.
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a || (at >= 3 && bytes.subarray(at - 3, at).toString('latin1') === 'end')) {
      at = bytes.indexOf(STREAM, at + STREAM.length);
      continue;
    }
    start++;
    const end = bytes.indexOf(END_STREAM, start);
    if (end < 0) break;
    const dictionary = dictionaryBefore(bytes, at);
    if (/\/FlateDecode\b|\/Fl\b/.test(dictionary) && !/\/Subtype\s*\/Image\b/.test(dictionary)) {
      try {
        total += inflateSync(bytes.subarray(start, end), { maxOutputLength: cap - total + 1 }).length;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') total = cap + 1;
        // Anything else (truncated data, a wrong filter name): PDF.js decides whether the file is readable.
      }
      if (total > cap) {
        throw new ExtractionError('too_large', `the PDF's compressed streams inflate to more than ${cap} bytes`);
      }
    }
    at = bytes.indexOf(STREAM, end + END_STREAM.length);
  }
}

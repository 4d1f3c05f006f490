import { basename } from 'node:path';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { ExtractionError } from '../errors';
import { formatOfPath, isGzipped, SUPPORTED_EXTENSIONS, withoutGz, type Extraction } from './extraction';
import { extractPlainText } from './extract-plain-text';
import { extractOffThread } from './extraction-pool';

const gunzipAsync = promisify(gunzip);

/** A `.gz` document inflates to at most this many bytes (the same cap as a file read as it is). */
export const MAX_INFLATED_BYTES = 25 * 1024 * 1024;

async function inflate(bytes: Uint8Array, fileName: string): Promise<Uint8Array> {
  try {
    return await gunzipAsync(bytes, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ExtractionError('too_large', `too large: ${fileName} inflates to more than 25 MB`, { cause: err });
    }
    throw new ExtractionError('extraction_error', `could not extract text: ${fileName} is not a valid gzip file`, { cause: err });
  }
}

/**
 * Extracts title and text from a file's bytes; the format is chosen by the file name's extension (`.gz` is inflated
 * first, under a size cap, and read as the format of the rest of the name). PDF and HTML are parsed in a worker thread
 * with limits on time, memory and inflated bytes (extraction-pool.ts): an uploaded or fetched document may be hostile.
 * Throws ExtractionError (with a reason code) for unsupported, binary, empty, corrupt, encrypted or too large input.
 */
export async function extractBytes(bytes: Uint8Array, fileName: string): Promise<Extraction> {
  const format = formatOfPath(fileName);
  if (format !== undefined && isGzipped(fileName)) bytes = await inflate(bytes, basename(fileName));
  const name = basename(withoutGz(fileName));
  switch (format) {
    case 'markdown':
    case 'text':
      return extractPlainText(bytes, name, format);
    case 'html':
    case 'pdf':
      return extractOffThread(format, bytes, name);
    case undefined:
      throw new ExtractionError('unsupported', `unsupported file type: expected one of ${SUPPORTED_EXTENSIONS.join(', ')} (or .gz of one)`);
  }
}

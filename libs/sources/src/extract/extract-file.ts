import { basename } from 'node:path';
import { ExtractionError } from '../errors';
import { formatOfPath, SUPPORTED_EXTENSIONS, type Extraction } from './extraction';
import { extractPlainText } from './extract-plain-text';
import { extractOffThread } from './extraction-pool';

/**
 * Extracts title and text from a file's bytes; the format is chosen by the file name's extension. PDF and HTML are
 * parsed in a worker thread with limits on time, memory and inflated bytes (extraction-pool.ts): an uploaded or
 * fetched document may be hostile. Throws ExtractionError (with a reason code) for unsupported, binary, empty,
 * corrupt, encrypted or too large input.
 */
export async function extractBytes(bytes: Uint8Array, fileName: string): Promise<Extraction> {
  const format = formatOfPath(fileName);
  const name = basename(fileName);
  switch (format) {
    case 'markdown':
    case 'text':
      return extractPlainText(bytes, name, format);
    case 'html':
    case 'pdf':
      return extractOffThread(format, bytes, name);
    case undefined:
      throw new ExtractionError('unsupported', `unsupported file type: expected one of ${SUPPORTED_EXTENSIONS.join(', ')}`);
  }
}

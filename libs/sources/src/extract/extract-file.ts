import { basename } from 'node:path';
import { ExtractionError } from '../errors';
import { formatOfPath, SUPPORTED_EXTENSIONS, type Extraction } from './extraction';
import { extractHtml } from './extract-html';
import { extractPdf } from './extract-pdf';
import { extractPlainText } from './extract-plain-text';

/**
 * Extracts title and text from a file's bytes; the format is chosen by the file name's extension.
 * Throws ExtractionError (with a reason code) for unsupported, binary, empty, corrupt or encrypted input.
 */
export async function extractBytes(bytes: Uint8Array, fileName: string): Promise<Extraction> {
  const format = formatOfPath(fileName);
  const name = basename(fileName);
  switch (format) {
    case 'markdown':
    case 'text':
      return extractPlainText(bytes, name, format);
    case 'html':
      return extractHtml(bytes, name);
    case 'pdf':
      return extractPdf(bytes, name);
    case undefined:
      throw new ExtractionError('unsupported', `unsupported file type: expected one of ${SUPPORTED_EXTENSIONS.join(', ')}`);
  }
}

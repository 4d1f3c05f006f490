import { ExtractionError } from '../errors';
import { type DocumentFormat, type Extraction } from './extraction';
import { extractHtml } from './extract-html';
import { extractPdf } from './extract-pdf';
import { extractPlainText } from './extract-plain-text';
import { assertInflationWithin } from './pdf-inflation';

/** The bounds of one extraction of a document that may be hostile (docs/decisions/0067). */
export interface ExtractionLimits {
  /** A PDF's Flate streams (images aside) may inflate to at most this many bytes. */
  maxInflatedBytes: number;
  /** Wall time of one extraction in its worker; beyond it the worker is stopped. */
  timeoutMs: number;
  /** Heap of an extraction worker; a document that needs more is refused. */
  maxHeapMb: number;
}

export const EXTRACTION_LIMITS: ExtractionLimits = { maxInflatedBytes: 32 * 1024 * 1024, timeoutMs: 20_000, maxHeapMb: 512 };

/** One document's extraction on the calling thread (in an extraction worker, or for trusted input). */
export async function extractInThread(
  format: DocumentFormat,
  bytes: Uint8Array,
  name: string,
  limits: Pick<ExtractionLimits, 'maxInflatedBytes'> = EXTRACTION_LIMITS,
): Promise<Extraction> {
  switch (format) {
    case 'markdown':
    case 'text':
      return extractPlainText(bytes, name, format);
    case 'html':
      return extractHtml(bytes, name);
    case 'pdf':
      assertInflationWithin(bytes, limits.maxInflatedBytes);
      return extractPdf(bytes, name);
    default:
      throw new ExtractionError('unsupported', `no extractor for ${String(format)}`);
  }
}

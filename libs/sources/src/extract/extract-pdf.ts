import { getDocumentProxy } from 'unpdf';
import { ExtractionError } from '../errors';
import { clampTitle, MEDIA_TYPES, type Extraction } from './extraction';
import { normalizeText } from './normalize-text';
import { ensurePdfjs } from './pdfjs-loader';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

function pdfFailure(err: unknown): ExtractionError {
  const name = err instanceof Error ? err.name : 'Error';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException') {
    return new ExtractionError('encrypted_pdf', 'encrypted PDF: it needs a password to be read', { cause: err });
  }
  return new ExtractionError('corrupt_pdf', `corrupt PDF: ${message}`, { cause: err });
}

async function pageText(pdf: PdfDocument, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue; // marked-content boundaries carry no text
      text += item.str + (item.hasEOL ? '\n' : '');
    }
    return text;
  } finally {
    page.cleanup();
  }
}

async function infoTitle(pdf: PdfDocument): Promise<string> {
  const { info } = await pdf.getMetadata();
  const title = (info as { Title?: unknown } | undefined)?.Title;
  return typeof title === 'string' ? clampTitle(title) : '';
}

/**
 * PDF → text with PDF.js (through unpdf; pure JS, no canvas). Pages are read in order and separated by a
 * blank line; within a page the text items are joined as PDF.js marks their line ends. Title: the
 * document's Title metadata, else the first line, else the file name. A PDF that PDF.js cannot parse is
 * `corrupt_pdf`, one that needs a password `encrypted_pdf`, one without a text layer (a scan) `empty`.
 */
export async function extractPdf(bytes: Uint8Array, fileName: string): Promise<Extraction> {
  await ensurePdfjs();
  let pdf: PdfDocument;
  try {
    // PDF.js takes ownership of (and may detach) the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, stopAtErrors: true });
  } catch (err) {
    throw pdfFailure(err);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      let raw: string;
      try {
        raw = await pageText(pdf, n);
      } catch (err) {
        throw pdfFailure(err);
      }
      const page = normalizeText(raw);
      if (page !== '') pages.push(page);
    }
    const text = normalizeText(pages.join('\n\n'));
    if (text === '') throw new ExtractionError('empty', 'empty after extraction: the PDF has no text layer (scanned pages?)');
    const title = (await infoTitle(pdf)) || clampTitle(text.split('\n', 1)[0] ?? '') || fileName;
    return { title, text, mediaType: MEDIA_TYPES.pdf };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

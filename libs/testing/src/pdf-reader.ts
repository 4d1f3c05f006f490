import * as path from 'node:path';
import { definePDFJSModule, getDocumentProxy } from 'unpdf';

let ready: Promise<void> | undefined;

// As libs/sources/src/extract/pdfjs-loader.ts (not imported: @dossier/sources would load its HTML stack too).
function ensurePdfjs(): Promise<void> {
  ready ??= definePDFJSModule(async () => {
    const bundle = path.join(path.dirname(require.resolve('unpdf')), 'pdfjs.mjs');
    return require(bundle) as typeof import('unpdf/pdfjs');
  });
  return ready;
}

/** What a reader gets out of a PDF: its text, page by page, its web links and its Title. */
export interface PdfContent {
  pages: string[];
  /** Every page's text, joined. */
  text: string;
  /** The URIs of every link annotation, in page order. */
  links: string[];
  /** Named destinations that internal links (`[N]` → source N) may point at. */
  destinations: string[];
  /** Internal link targets, in page order. */
  internalLinks: string[];
  title: string;
}

/**
 * Reads a PDF with PDF.js (the parser the corpus ingestion uses), the way a person's viewer would: the text
 * layer and the link annotations. For tests of rendered PDFs; compare with {@link compactText} so that line
 * wrapping (which splits a long URL or title across lines) does not matter.
 */
export async function readPdf(bytes: Uint8Array): Promise<PdfContent> {
  await ensurePdfjs();
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, stopAtErrors: true });
  try {
    const pages: string[] = [];
    const links: string[] = [];
    const internalLinks: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      for (const a of (await page.getAnnotations()) as { subtype?: string; url?: string; dest?: unknown }[]) {
        if (a.subtype !== 'Link') continue;
        if (typeof a.url === 'string') links.push(a.url);
        else if (typeof a.dest === 'string') internalLinks.push(a.dest);
      }
      page.cleanup();
    }
    const destinations = Object.keys((await pdf.getDestinations()) as Record<string, unknown>);
    const { info } = await pdf.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return { pages, text: pages.join('\n'), links, destinations, internalLinks, title: typeof title === 'string' ? title : '' };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** Text without any whitespace, to find a phrase however the PDF wrapped it. */
export function compactText(text: string): string {
  return text.replace(/\s+/g, '');
}

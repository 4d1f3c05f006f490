import { ExtractionError } from '../errors';
import { extractPlainText } from '../extract/extract-plain-text';
import { extractOffThread } from '../extract/extraction-pool';
import type { Extraction } from '../extract/extraction';
import { decodeBody } from './decode-body';
import { readHtmlMetadata, type HtmlMetadata } from './html-metadata';
import type { FetchedPage, SafeFetcher } from './safe-fetcher';

export interface FetchedDocument {
  /** The URL the content came from (after redirects). */
  url: string;
  title: string;
  text: string;
  mediaType: string;
  byline: string | null;
  publishedAt: string | null;
  /** The body was cut at the fetcher's size cap: the text is the start of the document. */
  truncated: boolean;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const NO_METADATA: HtmlMetadata = { byline: null, publishedAt: null };

/**
 * A fetched page → title and main text, with the lib's extractors (so a fetched page and an ingested file
 * with the same bytes give the same text). Text formats are decoded first with the charset the response
 * declares (see decodeBody) and handed to the extractor as UTF-8. PDF and HTML are parsed off the event loop, within
 * the extraction limits (extraction-pool.ts). The title falls back to the URL.
 * A PDF cut at the size cap is usually unreadable and fails as ExtractionError('corrupt_pdf').
 */
export async function documentFromPage(page: FetchedPage): Promise<FetchedDocument> {
  let extraction: Extraction;
  let metadata = NO_METADATA;
  if (page.contentType === 'application/pdf') {
    extraction = await extractOffThread('pdf', page.bytes, page.url);
  } else {
    const html = HTML_TYPES.has(page.contentType);
    const text = decodeBody(page.bytes, { charset: page.charset, html, truncated: page.truncated });
    const utf8 = new TextEncoder().encode(text);
    if (html) {
      extraction = await extractOffThread('html', utf8, page.url);
      metadata = readHtmlMetadata(text);
    } else if (page.contentType === 'text/plain' || page.contentType === 'text/markdown') {
      extraction = extractPlainText(utf8, page.url, page.contentType === 'text/markdown' ? 'markdown' : 'text');
    } else {
      throw new ExtractionError('unsupported', `no extractor for ${page.contentType} (from ${page.url})`);
    }
  }
  return { url: page.url, ...extraction, ...metadata, truncated: page.truncated };
}

/** Fetches a URL through the SSRF-safe fetcher and extracts its document. */
export async function fetchDocument(fetcher: Pick<SafeFetcher, 'fetch'>, url: string): Promise<FetchedDocument> {
  return documentFromPage(await fetcher.fetch(url));
}

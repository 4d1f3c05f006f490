import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { ExtractionError } from '../errors';
import { clampTitle, MEDIA_TYPES, type Extraction } from './extraction';
import { htmlToText, type DomNode } from './html-to-text';
import { normalizeText } from './normalize-text';
import { decodeText } from './text-decoding';

interface HtmlDocument extends DomNode {
  readonly title: string;
  readonly body: DomNode | null;
  querySelector(selector: string): DomNode | null;
}

// Readability gives up on pages with less main text than this and falls back to looser rules; our
// fallback (the body text) covers what it still misses.
const READABILITY_CHAR_THRESHOLD = 200;

/** The charset an HTML file declares in its first bytes (<meta charset> or http-equiv content-type). */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  return /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head)?.[1];
}

function parseDocument(html: string): HtmlDocument {
  // linkedom needs an <html> element to build head and body; a bare fragment gets one.
  const source = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(source).document as unknown as HtmlDocument;
}

/**
 * HTML → the page's main text. Readability (over linkedom, pure JS) drops navigation, footers and other
 * boilerplate; when it finds no article the whole body text is used. Paragraphs are separated by a blank
 * line. Title: the page's first <h1> (the headline as readers see it; <title> usually carries the site
 * name too, and Readability's guess at trimming it cuts real titles at a colon), else <title>, else the
 * file name.
 */
export function extractHtml(bytes: Uint8Array, fileName: string): Extraction {
  const html = decodeText(bytes, declaredCharset(bytes));
  const document = parseDocument(html);
  // Read before Readability runs: it rewrites the document it is given.
  const title = clampTitle(document.querySelector('h1')?.textContent ?? '') || clampTitle(document.title) || fileName;
  const article = new Readability<DomNode>(document as never, {
    charThreshold: READABILITY_CHAR_THRESHOLD,
    serializer: (node) => node as unknown as DomNode,
  }).parse();

  let text = article?.content ? normalizeText(htmlToText(article.content)) : '';
  if (text === '') {
    const original = parseDocument(html);
    text = normalizeText(htmlToText(original.body ?? original));
  }
  if (text === '') throw new ExtractionError('empty', 'empty after extraction: the page has no text');
  return { title, text, mediaType: MEDIA_TYPES.html };
}

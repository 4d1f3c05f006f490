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
  querySelectorAll(selector: string): ArrayLike<DomNode & { remove(): void }>;
}

// Readability gives up on pages with less main text than this and falls back to looser rules; our
// fallback (the body text) covers what it still misses.
const READABILITY_CHAR_THRESHOLD = 200;

// Readability keeps one "article" block. On pages made of several sibling sections (Git's manual pages, for example)
// it keeps one and drops the rest: 71 of git-doc's 241 pages kept under half their text, git-pull.html lost its whole
// description. When it keeps less than this share of the page's text outside navigation, headers, footers and asides,
// that page text is used instead (decision 0022 measured the loss).
const MIN_ARTICLE_SHARE = 0.5;

/** Elements that are never a page's content. */
const NOT_CONTENT = 'nav, header, footer, aside, script, style, noscript, template, form, #footer';

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

/** The body's text without the elements that are never content. */
function pageText(html: string): string {
  const page = parseDocument(html);
  for (const element of Array.from(page.querySelectorAll(NOT_CONTENT))) element.remove();
  return normalizeText(htmlToText(page.body ?? page));
}

/**
 * HTML → the page's main text. Readability (over linkedom, pure JS) drops navigation, footers and other
 * boilerplate; when it finds no article, or keeps less than half of the page's text
 * (MIN_ARTICLE_SHARE), the body text outside navigation, headers, footers and asides is used. Paragraphs are separated by a blank
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
  const page = pageText(html);
  if (text.length < page.length * MIN_ARTICLE_SHARE) text = page;
  if (text === '') throw new ExtractionError('empty', 'empty after extraction: the page has no text');
  return { title, text, mediaType: MEDIA_TYPES.html };
}

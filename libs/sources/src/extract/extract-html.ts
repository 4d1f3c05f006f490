import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { ExtractionError } from '../errors';
import { clampTitle, MEDIA_TYPES, type Extraction } from './extraction';
import { htmlToText, type DomNode } from './html-to-text';
import { withoutResidualLinkSyntax } from './markdown-text';
import { normalizeText } from './normalize-text';
import { decodeText } from './text-decoding';

interface HtmlElement extends DomNode {
  remove(): void;
  closest(selector: string): HtmlElement | null;
}

interface HtmlDocument extends DomNode {
  readonly title: string;
  readonly body: DomNode | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
}

// Readability gives up on pages with less main text than this and falls back to looser rules; our
// fallback (the body text) covers what it still misses.
const READABILITY_CHAR_THRESHOLD = 200;

// Readability keeps one "article" block. On pages made of several sibling sections (Git's manual pages, for example)
// it keeps one and drops the rest: 71 of git-doc's 241 pages kept under half their text, git-pull.html lost its whole
// description. When it keeps less than this share of the page's text outside navigation, headers, footers and asides,
// that page text is used instead (decision 0022 measured the loss).
const MIN_ARTICLE_SHARE = 0.5;

/**
 * Elements that are never a page's content: site chrome, and a generated manual's per-API change history (Node's
 * `<details class="changelog">`: versions and pull-request links, the HTML form of its markdown's `<!-- YAML -->`).
 */
const NOT_CONTENT = 'nav, header, footer, aside, script, style, noscript, template, form, #footer, details.changelog';
/** Site chrome: a heading inside it names the site, not the page. */
const CHROME = 'header, nav, footer, aside, #footer';
/** A heading's permalink mark (`#`, `¶`, `§`, a link symbol) is not part of its text. */
const PERMALINK_TEXT = /^\s*[#¶§🔗]\s*$/u;

/** Removes what is never content, and headings' permalink marks (`File system#` would be the heading's text). */
function dropNonContent(document: HtmlDocument): void {
  for (const element of Array.from(document.querySelectorAll(NOT_CONTENT))) element.remove();
  for (const anchor of Array.from(document.querySelectorAll('a'))) {
    if (PERMALINK_TEXT.test(anchor.textContent ?? '')) anchor.remove();
  }
}

/** The first heading of one of these levels outside the site's chrome, as plain text. */
function pageHeading(document: HtmlDocument, level: string): string {
  for (const heading of Array.from(document.querySelectorAll(level))) {
    if (heading.closest(CHROME)) continue;
    const text = clampTitle((heading.textContent ?? '').replace(/[#¶§🔗]+\s*$/u, ''));
    if (text !== '') return text;
  }
  return '';
}

/** `File system | Node.js v20 Documentation` → `File system`: the part before the site's name. */
function ownTitle(title: string): string {
  return clampTitle(title.split(/\s+[|–—·»]\s+|\s+-\s+/)[0] ?? '');
}

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
  dropNonContent(page);
  return normalizeText(htmlToText(page.body ?? page));
}

/**
 * HTML → the page's main text. Readability (over linkedom, pure JS) drops navigation, footers and other
 * boilerplate; when it finds no article, or keeps less than half of the page's text
 * (MIN_ARTICLE_SHARE), the body text outside navigation, headers, footers and asides is used. Paragraphs are separated by a blank
 * line. Unresolved reference links (`[AssertionError][]`, shown literally by the generator) keep their text only.
 * Title: the page's own heading — its first <h1> outside the site's header, navigation and footer (a manual's header
 * <h1> names the whole manual on every page), else its first <h2> there — else <title> without the site's name after
 * `|` or ` - `, else the file name. (Readability's guess at trimming <title> cuts real titles at a colon.)
 */
export function extractHtml(bytes: Uint8Array, fileName: string): Extraction {
  const html = decodeText(bytes, declaredCharset(bytes));
  const document = parseDocument(html);
  // Read before Readability runs: it rewrites the document it is given.
  const title = pageHeading(document, 'h1') || pageHeading(document, 'h2') || ownTitle(document.title) || fileName;
  dropNonContent(document);
  const article = new Readability<DomNode>(document as never, {
    charThreshold: READABILITY_CHAR_THRESHOLD,
    serializer: (node) => node as unknown as DomNode,
  }).parse();

  let text = article?.content ? normalizeText(htmlToText(article.content)) : '';
  const page = pageText(html);
  if (text.length < page.length * MIN_ARTICLE_SHARE) text = page;
  text = withoutResidualLinkSyntax(text);
  if (text === '') throw new ExtractionError('empty', 'empty after extraction: the page has no text');
  return { title, text, mediaType: MEDIA_TYPES.html };
}

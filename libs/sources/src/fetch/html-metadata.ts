import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { clampTitle } from '../extract/extraction';

/**
 * Readability finds the byline and published time in the page head (meta tags, JSON-LD) and near the top
 * of the body; the text itself comes from extractHtml. This second pass reads only the start of a page so
 * that a multi-megabyte page does not pay for Readability twice.
 */
const METADATA_PREFIX_CHARS = 256 * 1024;

export interface HtmlMetadata {
  byline: string | null;
  /** ISO 8601: a date (YYYY-MM-DD) as written, or a full timestamp in UTC; null when absent or unreadable. */
  publishedAt: string | null;
}

interface MetaDocument {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
}

const PUBLISHED_META = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="date"]',
  'meta[name="dc.date"]',
  'meta[name="DC.date.issued"]',
];

function parseDocument(html: string): MetaDocument {
  const source = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(source).document as unknown as MetaDocument;
}

/** A published date as ISO 8601, or null when it is not a date. */
export function normalizePublishedAt(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Number.isNaN(Date.parse(text)) ? null : text;
  const at = Date.parse(text);
  return text === '' || Number.isNaN(at) ? null : new Date(at).toISOString();
}

function cleanByline(value: string | null | undefined): string | null {
  const text = clampTitle((value ?? '').replace(/^\s*by[:\s]+/i, ''));
  return text === '' ? null : text;
}

/** Byline and published date of an HTML page: Readability's, else the article:published_time-style meta tags. */
export function readHtmlMetadata(html: string): HtmlMetadata {
  const document = parseDocument(html.length > METADATA_PREFIX_CHARS ? html.slice(0, METADATA_PREFIX_CHARS) : html);
  // Read before Readability runs: it rewrites the document it is given.
  const metaPublished = PUBLISHED_META.map((s) => document.querySelector(s)?.getAttribute('content')).find(
    (v) => normalizePublishedAt(v) !== null,
  );
  const article = new Readability(document as never, { serializer: (node: unknown) => node }).parse();
  return {
    byline: cleanByline(article?.byline),
    publishedAt: normalizePublishedAt(article?.publishedTime) ?? normalizePublishedAt(metaPublished),
  };
}

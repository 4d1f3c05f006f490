import { ExtractionError } from '../errors';
import { clampTitle, MEDIA_TYPES, type Extraction } from './extraction';
import { normalizeText } from './normalize-text';
import { decodeText } from './text-decoding';

/** Inline markdown that should not show in a title: links keep their text, emphasis and code marks go. */
function plainInline(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*{1,3}|_{1,3}|~~)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

const FRONT_MATTER = /^---\n([\s\S]*?)\n---(?:\n|$)/;

function frontMatterTitle(text: string): string | undefined {
  const line = FRONT_MATTER.exec(text)?.[1]
    ?.split('\n')
    .find((l) => /^title\s*:/i.test(l));
  const value = line
    ?.replace(/^title\s*:\s*/i, '')
    .replace(/^(['"])(.*)\1$/, '$2')
    .trim();
  return value ? plainInline(value) : undefined;
}

/** The lines of a markdown body that are not inside a fenced code block (and not the fences). */
function proseLines(text: string): { line: string; next: string | undefined }[] {
  const lines = text.replace(FRONT_MATTER, '').split('\n');
  const prose: { line: string; next: string | undefined }[] = [];
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence) prose.push({ line, next: lines[i + 1] });
  });
  return prose;
}

function markdownHeading(text: string): string | undefined {
  for (const { line, next } of proseLines(text)) {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx?.[1]) return plainInline(atx[1]);
    // Setext heading: a text line (not a list item or quote) underlined with === or ---.
    if (next !== undefined && line.trim() !== '' && !/^\s*([-*+>]|\d+[.)])\s/.test(line) && /^\s{0,3}(=+|-+)\s*$/.test(next)) {
      return plainInline(line);
    }
  }
  return undefined;
}

function firstLine(text: string): string | undefined {
  return text.split('\n').find((l) => l.trim() !== '');
}

/**
 * Markdown prose as a reader sees it: emphasis, code marks and link syntax removed line by line (fenced
 * code and line structure kept, so headings, lists and tables stay units of their own). Evidence quotes
 * this text, so a report never shows `**bold**` markup as if the author had written asterisks.
 */
function markdownToText(text: string): string {
  let inFence = false;
  return text
    .replace(FRONT_MATTER, '')
    .split('\n')
    .map((line) => {
      if (/^\s{0,3}(```|~~~)/.test(line)) {
        inFence = !inFence;
        return line;
      }
      return inFence
        ? line
        : plainInline(line.replace(/^(\s{0,3})>\s?/, '$1')).replace(/\s+$/, '') || (line.trim() === '' ? '' : line.trim());
    })
    .join('\n');
}

/**
 * Plain text is stored as it is, markdown as its readable text (markdownToText), both after the common
 * normalization; offsets point into exactly that stored text. Title: front-matter `title:` or the first
 * heading for markdown, else the first non-blank line, else the file name.
 */
export function extractPlainText(bytes: Uint8Array, fileName: string, format: 'markdown' | 'text'): Extraction {
  const text = normalizeText(decodeText(bytes));
  if (text.trim() === '') throw new ExtractionError('empty', 'empty after extraction: the file has no text');
  const heading = format === 'markdown' ? (frontMatterTitle(text) ?? markdownHeading(text)) : undefined;
  const lead =
    format === 'markdown' ? plainInline(proseLines(text).find(({ line }) => line.trim() !== '')?.line ?? '') : (firstLine(text) ?? '');
  const title = clampTitle(heading ?? lead) || fileName;
  return { title, text: format === 'markdown' ? markdownToText(text) : text, mediaType: MEDIA_TYPES[format] };
}

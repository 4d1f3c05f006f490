import { ExtractionError } from '../errors';
import { clampTitle, MEDIA_TYPES, type Extraction } from './extraction';
import { normalizeText } from './normalize-text';
import { frontMatterBlock, linkLabels, markdownToText, plainInline, withoutFrontMatter } from './markdown-text';
import { looksLikeRest, restToText } from './rest-text';
import { decodeText } from './text-decoding';

function frontMatterTitle(text: string): string | undefined {
  const line = frontMatterBlock(text)
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
  const lines = withoutFrontMatter(text).split('\n');
  const prose: { line: string; next: string | undefined }[] = [];
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence) prose.push({ line, next: lines[i + 1] });
  });
  return prose;
}

function markdownHeading(text: string): string | undefined {
  const labels = linkLabels(text);
  for (const { line, next } of proseLines(text)) {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx?.[1]) return plainInline(atx[1], labels);
    // Setext heading: a text line (not a list item or quote) underlined with === or ---.
    if (next !== undefined && line.trim() !== '' && !/^\s*([-*+>]|\d+[.)])\s/.test(line) && /^\s{0,3}(=+|-+)\s*$/.test(next)) {
      return plainInline(line, labels);
    }
  }
  return undefined;
}

function firstLine(text: string): string | undefined {
  return text.split('\n').find((l) => l.trim() !== '');
}

/**
 * Plain text is stored as it is, markdown as its readable text (markdownToText) and reStructuredText (a `.rst` or
 * `.rst.txt` name, or text with reST's roles and directives: looksLikeRest) as its readable text (restToText), all
 * after the common normalization; offsets point into exactly that stored text. Title: front-matter `title:` or the
 * first heading for markdown, the first section title for reST, else the first non-blank line, else the file name.
 */
export function extractPlainText(bytes: Uint8Array, fileName: string, format: 'markdown' | 'text'): Extraction {
  const text = normalizeText(decodeText(bytes));
  if (text.trim() === '') throw new ExtractionError('empty', 'empty after extraction: the file has no text');
  const rest = format === 'text' && looksLikeRest(text, fileName);
  const stored = format === 'markdown' ? markdownToText(text) : rest ? restToText(text) : text;
  if (stored.trim() === '') throw new ExtractionError('empty', 'empty after extraction: the file has no text outside its markup');
  const heading =
    format === 'markdown' ? (frontMatterTitle(text) ?? markdownHeading(text)) : rest ? /^#{1,6} (.+)$/m.exec(stored)?.[1] : undefined;
  // The first line of prose, not of a code block.
  const lead =
    format === 'markdown'
      ? firstLine(
          markdownToText(
            proseLines(text)
              .map(({ line }) => line)
              .join('\n'),
          ),
        )
      : firstLine(stored);
  const title = clampTitle(heading ?? lead ?? '') || fileName;
  return { title, text: stored, mediaType: MEDIA_TYPES[format] };
}

/** What every extractor returns. `text` is what evidence offsets index into: same bytes in, same text out. */
export interface Extraction {
  title: string;
  text: string;
  mediaType: string;
}

export type DocumentFormat = 'markdown' | 'text' | 'html' | 'pdf';

export const MEDIA_TYPES: Readonly<Record<DocumentFormat, string>> = {
  markdown: 'text/markdown',
  text: 'text/plain',
  html: 'text/html',
  pdf: 'application/pdf',
};

const FORMAT_BY_EXTENSION: Readonly<Record<string, DocumentFormat>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
};

/** The extensions ingestion accepts, lower case with the dot. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(FORMAT_BY_EXTENSION);

/** A gzip-compressed file (`page.md.gz`): read as the format of the name without `.gz` (Debian compresses its docs). */
export function isGzipped(fileName: string): boolean {
  return /\.gz$/i.test(fileName);
}

/** The file name without a trailing `.gz`. */
export function withoutGz(fileName: string): string {
  return isGzipped(fileName) ? fileName.slice(0, -3) : fileName;
}

/**
 * The format a file name stands for, by extension (case-insensitive), or undefined when unsupported. A `.gz` file
 * stands for the format of its name without `.gz` (`fs.md.gz` is markdown).
 */
export function formatOfPath(fileName: string): DocumentFormat | undefined {
  const name = withoutGz(fileName);
  const dot = name.lastIndexOf('.');
  if (dot <= name.lastIndexOf('/')) return undefined;
  return FORMAT_BY_EXTENSION[name.slice(dot).toLowerCase()];
}

/** Titles are shown in reports and weigh in search; a runaway first line must not become one. */
export const MAX_TITLE_LENGTH = 300;

export function clampTitle(title: string): string {
  const oneLine = title.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_TITLE_LENGTH ? oneLine : oneLine.slice(0, MAX_TITLE_LENGTH).trimEnd();
}

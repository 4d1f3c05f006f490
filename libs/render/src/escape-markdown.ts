/**
 * Markdown escaping for report text. Everything we write is a single line of inline content (a heading,
 * a paragraph, a list item, a quoted line), so escaping has two parts: characters that mean something
 * anywhere inline, and markers that only mean something at the start of a line (or, for `#`, as an ATX
 * heading's opening or closing sequence).
 */

// Inline syntax: emphasis, code spans, links/images, raw HTML and autolinks, strikethrough, escapes.
const INLINE_SPECIALS = /[\\`*_[\]<>~]/g;
// `&amp;` and `&#60;` are decoded by Markdown renderers; escaping the `&` keeps the text as written.
const ENTITY_LIKE = /&(?=#?[A-Za-z0-9]+;)/g;
// GFM turns bare `https://…`, `www.…` and `a@b.c` into links; a report's links come only from its sources.
const AUTOLINK_TRIGGERS = /:(?=\/\/)|(?<=\bwww)\.|@/gi;
// A `#` at the start, or after a space (a heading's closing sequence `Title #`); `C#` is left alone.
const HASH = /(^|\s)#/g;
// Block markers at the start of a line: list bullets, ordered-list numbers, thematic breaks, setext `=`.
const LEADING_BULLET = /^([-+=])/;
const LEADING_ORDINAL = /^(\d{1,9})([.)])/;

/** Escapes text for one line of Markdown. Newlines and runs of whitespace collapse into one space. */
export function escapeMarkdown(text: string): string {
  return escapeMarkdownLine(text.replace(/\s+/g, ' ').trim());
}

/**
 * Escapes each line of a multi-line text for use inside a blockquote; blank lines are kept (as empty
 * strings) so paragraphs of a verbatim excerpt stay apart.
 */
export function escapeMarkdownLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((line) => escapeMarkdownLine(line.replace(/\s+/g, ' ').trim()));
}

function escapeMarkdownLine(line: string): string {
  return (
    line
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '\ufffd')
      .replace(INLINE_SPECIALS, (c) => `\\${c}`)
      .replace(ENTITY_LIKE, '\\&')
      .replace(AUTOLINK_TRIGGERS, (c) => `\\${c}`)
      .replace(HASH, '$1\\#')
      .replace(LEADING_BULLET, '\\$1')
      .replace(LEADING_ORDINAL, '$1\\$2')
  );
}

/**
 * Makes an already-vetted URL (see `linkableUrl`) safe as a Markdown link destination `(...)`: characters
 * that would end the destination are percent-encoded (a space or `<`, `>` only survive in opaque URLs
 * such as `corpus:`); parentheses and backslashes are backslash-escaped so the URL itself is unchanged.
 */
export function markdownUrl(url: string): string {
  return (
    url
      .replace(/[\\()]/g, (c) => `\\${c}`)
      .replace(ENTITY_LIKE, '\\&')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0020<>\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
  );
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Makes any text safe as HTML element content or as a double- or single-quoted attribute value. Report
 * text is never HTML, so everything is escaped; there is no allow-list to get wrong. NUL and the other C0
 * controls (except tab, newline, carriage return) are not allowed in HTML text, so they become U+FFFD.
 */
export function escapeHtml(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
  );
}

/** A token safe inside a `class` attribute: letters, digits, `-`, `_` only. */
export function cssClassToken(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'unknown'
  );
}

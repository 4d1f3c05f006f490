const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// C0 controls other than tab and line feed, and DEL: Postgres rejects NUL, the rest is noise in a citation.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/g;

/**
 * The last step of every extractor, so that all formats obey the same rules and the stored text is a pure
 * function of the file's bytes: NFC, LF line ends (CRLF and lone CR), page/vertical breaks as line breaks,
 * no control characters or lone surrogates (Postgres would store those differently from what we hashed),
 * no trailing spaces on a line, at most one blank line in a row, nothing blank at either end.
 */
export function normalizeText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\f\v\u2028\u2029\u0085]/g, '\n')
    .replace(CONTROL, '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .normalize('NFC')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

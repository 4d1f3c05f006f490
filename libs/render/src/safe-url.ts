/** The only schemes a rendered report links to: web pages and documents of a private corpus. */
export const LINKABLE_SCHEMES: readonly string[] = ['http:', 'https:', 'corpus:'];

/**
 * Returns the URL normalised by the WHATWG parser when it is absolute and its scheme may be linked, else
 * `null` (the caller shows it as text). Parsing with the same algorithm browsers use matters: they strip
 * leading spaces and drop tabs/newlines anywhere, so `" java\tscript:alert(1)"` IS a `javascript:` URL and
 * a prefix check on the raw string would let it through.
 */
export function linkableUrl(raw: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Not an absolute URL (relative, empty, garbage): nothing we can safely point a link at.
    return null;
  }
  return LINKABLE_SCHEMES.includes(parsed.protocol) ? parsed.href : null;
}

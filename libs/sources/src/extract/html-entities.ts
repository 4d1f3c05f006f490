/**
 * Decodes HTML character references in one pass (`&amp;lt;` becomes the text `&lt;`, not `<`): numeric ones (decimal
 * or hex) to their code point unless it is not one (0, a surrogate, beyond U+10FFFF), named ones by `named` (looked up
 * in lower case). Anything else is left as written. Each caller names the entities its text uses.
 */
export function decodeEntities(text: string, named: ReadonlyMap<string, string>): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return named.get(name.toLowerCase()) ?? whole;
  });
}

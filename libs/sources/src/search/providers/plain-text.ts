// A Map, not an object literal: `&valueOf;` must not find Object.prototype's.
const NAMED_ENTITIES = new Map<string, string>(
  Object.entries({
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
    hellip: '…',
    mdash: '—',
    ndash: '–',
    lsquo: '‘',
    rsquo: '’',
    ldquo: '“',
    rdquo: '”',
    laquo: '«',
    raquo: '»',
    middot: '·',
    bull: '•',
    copy: '©',
    reg: '®',
    trade: '™',
  }),
);

/**
 * Snippets and titles as plain text: Brave marks matches with `<strong>` and encodes entities, some
 * SearXNG engines pass HTML through. Only things shaped like tags are removed (a lone `<` in "a < b"
 * stays), and entities are decoded in one pass so `&amp;lt;` becomes the text `&lt;`, not `<`.
 */
export function plainText(text: string): string {
  return text
    .replace(/<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/gi, '')
    .replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
      }
      return NAMED_ENTITIES.get(name.toLowerCase()) ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

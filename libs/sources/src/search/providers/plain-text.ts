import { decodeEntities } from '../../extract/html-entities';

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
  return decodeEntities(text.replace(/<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/gi, ''), NAMED_ENTITIES)
    .replace(/\s+/g, ' ')
    .trim();
}

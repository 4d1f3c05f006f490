/**
 * Markdown → the text a reader sees, for evidence (what a report quotes) and titles. Evidence offsets index into the
 * stored text, so everything here runs before the text is stored: a quote is always an exact slice of it, and never
 * shows link syntax, HTML tags, escapes, fences, comments or changelog metadata as if the author had written them.
 */

import { decodeEntities } from './html-entities';

const FRONT_MATTER = /^---\n([\s\S]*?)\n---(?:\n|$)/;
const FENCE = /^\s{0,3}(```|~~~)/;
/** `[label]: https://...` — a link reference definition: no prose. */
const LINK_DEFINITION = /^\s{0,3}\[((?:\\.|[^\]\\])+)\]:\s*\S.*$/;
/** `|---|:---:|` — a table's delimiter row. */
const TABLE_DELIMITER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
// A Map, not an object literal: a name is never looked up on Object.prototype.
const ENTITIES = new Map<string, string>(
  Object.entries({
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
    mdash: '—',
    ndash: '–',
    hellip: '…',
    copy: '©',
    reg: '®',
    trade: '™',
    rarr: '→',
    larr: '←',
  }),
);

/** Link labels a document defines (`[label]: url`), lower case: `[label]` alone is then a link, not literal brackets. */
export function linkLabels(text: string): Set<string> {
  const labels = new Set<string>();
  for (const line of text.split('\n')) {
    const label = LINK_DEFINITION.exec(line)?.[1];
    if (label) labels.add(label.toLowerCase());
  }
  return labels;
}

/** Prose outside code spans: tags and entities, emphasis, escapes. */
function plainProse(text: string): string {
  return (
    decodeEntities(
      text
        .replace(/<br\s*\/?>/gi, ' ')
        // An HTML tag (a letter right after `<`, or `</`): `a < b` and `<= 3` stay as they are.
        .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?\/?>/g, ''),
      ENTITIES,
    )
      .replace(/(?<![\\*])(\*{1,3}|~~)(?=\S)(.*?\S)\1(?!\*)/g, '$2')
      // Underscore emphasis only at word edges: snake_case names are not emphasis.
      .replace(/(?<![\w\\])(_{1,3})(?=\S)(.*?\S)\1(?!\w)/g, '$2')
      .replace(/\\([\\`*_{}[\]()#+\-.!|<>~"'=&:])/g, '$1')
  );
}

/**
 * One line of markdown prose as plain text: links keep their text (inline, reference, collapsed, shortcut with a
 * defined label, and the escaped `\[text\]\[\]` form some generators write), images their alt text, code spans their
 * code (without backticks), HTML tags go, entities are decoded, emphasis and escapes removed.
 */
export function plainInline(markdown: string, labels: ReadonlySet<string> = new Set()): string {
  const linked = markdown
    .replace(/\\\[((?:(?!\\\]).)+?)\\\]\\\[(?:(?!\\\]).)*?\\\]/g, '$1')
    .replace(/!\[((?:\\.|[^\]\\])*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, '$1')
    .replace(/(?<!\\)\[((?:\\.|`[^`]*`|[^\]\\`])+)\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, '$1')
    .replace(/(?<!\\)\[((?:\\.|`[^`]*`|[^\]\\`])+)\]\[[^\]\n]*\]/g, '$1')
    .replace(/(?<!\\)\[((?:\\.|`[^`]*`|[^\]\\`])+)\](?![(:[])/g, (whole, label: string) =>
      labels.has(label.toLowerCase()) ? label : whole,
    )
    .replace(/<((?:https?|mailto):[^<>\s]+)>/g, '$1');
  // Code spans keep their content verbatim; everything between them is prose.
  let out = '';
  let last = 0;
  for (const span of linked.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
    out += plainProse(linked.slice(last, span.index)) + (span[2] ?? '').replace(/^ (.*) $/, '$1');
    last = span.index + span[0].length;
  }
  return (out + plainProse(linked.slice(last))).trim();
}

/** `| a | b |` → `a; b` (escaped pipes inside a cell stay). */
function tableRow(line: string): string {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '')
    .join('; ');
}

/** Removes `<!-- ... -->` outside fenced code (Node's `<!-- YAML ... pr-url: ... -->` changelog blocks among them). */
function withoutComments(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let inFence = false;
  let inComment = false;
  for (let line of lines) {
    if (!inComment && FENCE.test(line)) {
      inFence = !inFence;
      out.push(line);
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    let kept = '';
    while (line !== '') {
      if (inComment) {
        const end = line.indexOf('-->');
        if (end < 0) {
          line = '';
          break;
        }
        line = line.slice(end + 3);
        inComment = false;
      } else {
        const start = line.indexOf('<!--');
        if (start < 0) {
          kept += line;
          break;
        }
        kept += line.slice(0, start);
        line = line.slice(start + 4);
        inComment = true;
      }
    }
    out.push(kept);
  }
  return out.join('\n');
}

/** A link whose text runs over a line break (hard-wrapped prose): blank lines are refused in `unwrap` below. */
const WRAPPED_REFERENCE = /(?<!\\)\[([^[\]\n]*\n[^[\]]*)\]\[[^\]\n]*\]/g;
const WRAPPED_INLINE = /(?<![\\!])\[([^[\]\n]*\n[^[\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g;

/**
 * A link whose text wraps onto the next line (`[Nonce-Disrespecting\nAdversaries][]`) keeps its text, line break
 * included; one-line links are left to plainInline. Fenced code is not touched.
 */
function withWrappedLinksJoined(text: string): string {
  let inFence = false;
  const segments: { code: boolean; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const code = inFence || FENCE.test(line);
    if (FENCE.test(line)) inFence = !inFence;
    const last = segments.at(-1);
    if (last && last.code === code) last.lines.push(line);
    else segments.push({ code, lines: [line] });
  }
  return segments
    .map(({ code, lines }) => {
      const joined = lines.join('\n');
      const unwrap = (whole: string, inner: string) => (/\n[^\S\n]*\n/.test(inner) ? whole : inner);
      return code ? joined : joined.replace(WRAPPED_REFERENCE, unwrap).replace(WRAPPED_INLINE, unwrap);
    })
    .join('\n');
}

export function withoutFrontMatter(text: string): string {
  return text.replace(FRONT_MATTER, '');
}

export function frontMatterBlock(text: string): string | undefined {
  return FRONT_MATTER.exec(text)?.[1];
}

/**
 * Markdown as a reader sees it, line by line so headings, list items and paragraphs stay units of their own: front
 * matter, HTML comments, fence lines, link definitions and table delimiter rows go; table rows become `a; b`; prose
 * loses its inline markup (plainInline). Code inside fences is kept as written. Headings keep their `#` marks: the
 * sentence splitter reads them as headings, and no sentence quotes one.
 */
export function markdownToText(text: string): string {
  const body = withWrappedLinksJoined(withoutComments(withoutFrontMatter(text)));
  const labels = linkLabels(body);
  let inFence = false;
  const lines = body.split('\n').map((line) => {
    if (FENCE.test(line)) {
      inFence = !inFence;
      return '';
    }
    if (inFence) return line;
    if (LINK_DEFINITION.test(line) || TABLE_DELIMITER.test(line)) return '';
    const unquoted = line.replace(/^(\s{0,3})>\s?/, '$1');
    const source = /^\s*\|.*\|\s*$/.test(unquoted) ? tableRow(unquoted) : unquoted;
    const indent = /^\s*/.exec(source)?.[0] ?? '';
    const plain = plainInline(source, labels);
    return plain === '' ? '' : indent + plain;
  });
  return lines
    .join('\n')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

/**
 * What is left of link syntax in text extracted from a generated page: an unresolved reference such as
 * `[AssertionError][]` (the HTML shows the brackets literally when the generator found no definition).
 */
export function withoutResidualLinkSyntax(text: string): string {
  return text.replace(/\[([^[\]\n]+)\]\[[^[\]\n]*\]/g, '$1');
}

/** The few DOM members the text walker reads; linkedom's nodes (and browser nodes) have them. */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly childNodes: ArrayLike<DomNode>;
  readonly textContent: string | null;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Elements whose content starts and ends a paragraph. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);
/** Elements whose text is never content. */
const SKIP = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'audio',
  'video',
  'select',
  'option',
  'datalist',
  'button',
  'input',
  'textarea',
  'title',
  'meta',
  'link',
]);
const CELL = new Set(['td', 'th']);
const BULLET = '\u2022 ';
// HTML's inter-element whitespace: collapsed to one space inside a paragraph, like a browser does.
const COLLAPSIBLE = /[ \t\n\r\f\u00A0]+/g;

class ParagraphWriter {
  readonly paragraphs: string[] = [];
  private lines: string[] = [''];
  /** A list item's bullet, written before the first text of the item (which may sit in a <p> inside the <li>). */
  private bullet = '';

  text(data: string): void {
    if (this.bullet !== '' && data.trim() !== '') {
      this.lines[this.lines.length - 1] += this.bullet;
      this.bullet = '';
    }
    this.lines[this.lines.length - 1] += data;
  }

  noBullet(): void {
    this.bullet = '';
  }

  /** The next text opens a list item: it is written after a bullet, as a Markdown list's item is. */
  item(): void {
    this.bullet = BULLET;
  }

  lineBreak(): void {
    this.lines.push('');
  }

  /** Ends the current paragraph; `verbatim` keeps its whitespace (for <pre>). */
  flush(verbatim = false): void {
    const lines = verbatim ? this.lines : this.lines.map((l) => l.replace(COLLAPSIBLE, ' ').trim());
    let paragraph = lines.join('\n').replace(/^\n+|\s+$/g, '');
    // An item that is a passage of sentences is kept as prose, each sentence its own (a bullet would make the passage
    // one unit, too long to quote: git-manual's gitignore "!" item lost its sentences so, decision 0132).
    if (paragraph.startsWith(BULLET) && /[.!?]["'\u201d\u2019)\]]*\s+["'\u201c\u2018(]?\p{Lu}/u.test(paragraph))
      paragraph = paragraph.slice(BULLET.length);
    if (paragraph.trim() !== '') this.paragraphs.push(paragraph);
    this.lines = [''];
  }
}

/**
 * Text of an HTML subtree as paragraphs separated by one blank line: block elements start and end a
 * paragraph, <br> breaks a line, a list item opens with a bullet ("• ", so the sentence splitter reads it as an item and a
 * lead-in can be joined with its items, decision 0132), table cells are separated by a space, <pre> keeps its whitespace, and
 * scripts, styles and form controls are left out. Iterative, so a deeply nested page cannot overflow
 * the stack. Entities are already decoded by the parser.
 */
export function htmlToText(root: DomNode): string {
  const out = new ParagraphWriter();
  // A frame is a node to enter, or the marker to run after its children (`exit`).
  const stack: { node: DomNode; exit: boolean }[] = [{ node: root, exit: false }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { node, exit } = frame;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      out.text(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE && node !== root) continue;
    const name = node.nodeName.toLowerCase();
    if (exit) {
      if (BLOCK.has(name)) out.flush();
      else if (CELL.has(name)) out.text(' ');
      continue;
    }
    if (SKIP.has(name)) continue;
    if (name === 'br') {
      out.lineBreak();
      continue;
    }
    if (name === 'pre') {
      out.flush();
      // Program text is never an item's bullet point.
      out.noBullet();
      out.text(node.textContent ?? '');
      out.flush(true);
      continue;
    }
    if (BLOCK.has(name)) out.flush();
    if (name === 'li') out.item();
    stack.push({ node, exit: true });
    for (let i = node.childNodes.length - 1; i >= 0; i--) {
      const child = node.childNodes[i];
      if (child !== undefined) stack.push({ node: child, exit: false });
    }
  }
  out.flush();
  return out.paragraphs.join('\n\n');
}

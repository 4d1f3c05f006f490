/*
 * Sentence and block segmentation with exact offsets. Evidence excerpts must be verbatim substrings of a
 * snapshot, so a span is never rewritten: whitespace is trimmed by moving offsets, and
 * `text === input.slice(start, end)` holds for every span.
 */

import { isCode } from './code-text';

export interface Span {
  text: string;
  start: number;
  end: number;
}

/** `code`: a paragraph of program text (every line a command, SQL or code), shown as code, never as prose (decisions 0102, 0108). */
export type UnitKind = 'sentence' | 'heading' | 'list-item' | 'table-row' | 'code';

export interface Unit extends Span {
  kind: UnitKind;
}

interface Line {
  start: number;
  end: number;
  /** Offsets of the line without surrounding whitespace (equal when the line is blank). */
  contentStart: number;
  contentEnd: number;
  content: string;
}

// Abbreviations that are always followed by more of the same sentence.
const ALWAYS_ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'rev',
  'gen',
  'capt',
  'col',
  'lt',
  'sgt',
  'hon',
  'gov',
  'sen',
  'rep',
  'fr',
  'mt',
  'vs',
  'v',
  'approx',
  'ca',
  'cf',
  'viz',
  'e.g',
  'i.e',
  'fig',
  'figs',
  'eq',
  'eqs',
  'ch',
  'sec',
  'vol',
  'vols',
  'pp',
  'ed',
  'eds',
  'dept',
  'univ',
  'est',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'mon',
  'tue',
  'tues',
  'wed',
  'thu',
  'thur',
  'thurs',
  'fri',
  'sat',
  'sun',
]);
// Abbreviations that precede a number ("No. 5", "p. 12", "c. 2019" for circa); elsewhere they are ordinary words.
const NUMERIC_ABBREVIATIONS = new Set(['no', 'nos', 'p', 'c', 'art', 'para', 'op', 'ref', 'tab']);
// Abbreviations that can end a sentence: a boundary only when a typical sentence opener follows.
const MAYBE_FINAL_ABBREVIATIONS = new Set([
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'llc',
  'plc',
  'bros',
  'jr',
  'sr',
  'st',
  'al',
  'ave',
  'rd',
  'ft',
  'lb',
  'lbs',
  'oz',
  'mi',
  'yd',
  'hr',
  'hrs',
  'min',
  'max',
  'esp',
  'dept',
  'gov',
]);
const SENTENCE_OPENERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'he',
  'she',
  'they',
  'we',
  'i',
  'you',
  'there',
  'their',
  'his',
  'her',
  'our',
  'in',
  'on',
  'at',
  'by',
  'for',
  'from',
  'to',
  'with',
  'as',
  'after',
  'before',
  'when',
  'while',
  'although',
  'though',
  'since',
  'because',
  'but',
  'and',
  'or',
  'so',
  'yet',
  'however',
  'moreover',
  'meanwhile',
  'also',
  'then',
  'thus',
  'therefore',
  'if',
  'some',
  'many',
  'most',
  'all',
  'both',
  'each',
  'other',
  'such',
  'what',
  'why',
  'how',
  'who',
  'where',
  'which',
  'during',
  'despite',
  'according',
  'overall',
  'today',
  'now',
  'later',
  'finally',
  'first',
  'second',
  'until',
  'unlike',
  'one',
]);

const TERMINATORS = '.!?\u2026';
const CLOSERS = '"\'\u201d\u2019)]}\u00bb';
const OPENERS = '"\'\u201c\u2018([{\u00ab';

const LIST_MARKER = /^(?:[-*+\u2022\u2023\u25e6\u2043\u2219]|\d{1,3}[.)]|[a-zA-Z][.)])\s+/;
const MARKDOWN_HEADING = /^#{1,6}(?:\s|$)/;
const RULE_LINE = /^(?:[-=*_~]\s*){3,}$/;
const HEADING_MAX_WORDS = 12;
const HEADING_MAX_CHARS = 100;
// A hard-wrapped prose line usually ends on one of these; a heading almost never does.
const CONNECTOR_ENDINGS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'with',
  'by',
  'from',
  'as',
  'that',
  'which',
  'who',
  'is',
  'was',
  'were',
  'are',
  'be',
  'been',
  'has',
  'have',
  'had',
  'its',
  'their',
  'his',
  'her',
  'than',
  'into',
  'over',
  'under',
  'between',
  'about',
  'not',
  'this',
  'these',
  'those',
  'it',
  'will',
  'would',
]);

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/u.test(ch);
}

function toLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    let cs = start;
    let ce = end;
    while (cs < ce && isSpace(text[cs])) cs++;
    while (ce > cs && isSpace(text[ce - 1])) ce--;
    lines.push({ start, end, contentStart: cs, contentEnd: ce, content: text.slice(cs, ce) });
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

function span(text: string, start: number, end: number): Span | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text[s])) s++;
  while (e > s && isSpace(text[e - 1])) e--;
  return s < e ? { text: text.slice(s, e), start: s, end: e } : null;
}

function endsWithTerminal(content: string): boolean {
  return /[.!?:;,\u2026]["'\u201d\u2019)\]]*$/.test(content);
}

function startsUpperOrDigit(content: string): boolean {
  return /^[\p{Lu}\p{N}]/u.test(content);
}

/** A short title-like line ("Background", "1.2 Methods") standing at the start of a paragraph. */
function isPlainHeading(line: Line, next: Line | undefined, atParagraphStart: boolean): boolean {
  if (!atParagraphStart || next === undefined) return false;
  const c = line.content;
  if (c.length === 0 || c.length > HEADING_MAX_CHARS || endsWithTerminal(c) || !startsUpperOrDigit(c)) return false;
  const words = c.split(/\s+/);
  if (words.length > HEADING_MAX_WORDS) return false;
  const last = words[words.length - 1].toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
  if (CONNECTOR_ENDINGS.has(last)) return false;
  // A line holding the end of a sentence ("Put obj into the queue.  If the optional argument block is True", "… to level
  // CRITICAL. See", decision 0168) or a bracket
  // it does not close ("Derived from BrokenExecutor (formerly") is the start of a wrapped paragraph: read as a heading,
  // it cut the sentence after it at the line break, which then opened mid-parenthesis (decision 0132).
  // A reference manual opens sentences with a parameter's name in lower case ("Retrieve a file in binary transfer mode.
  // cmd should be an appropriate"): after two spaces, the convention of such text for a sentence break, any letter starts one.
  if (
    /\p{Ll}[.!?]["'\u201d\u2019)\]]*\s+["'\u201c\u2018(]?\p{Lu}/u.test(c) ||
    // A word in capitals ends a sentence in a line in mixed case; an all-capitals title ("REBASE VS. PULL/MERGE") is one.
    (/\p{Ll}/u.test(c) && /\p{Lu}{2}[.!?]["'\u201d\u2019)\]]*\s+["'\u201c\u2018(]?\p{Lu}/u.test(c)) ||
    /\p{Ll}{2}[.!?]["'\u201d\u2019)\]]* {2,}\p{L}/u.test(c) ||
    unclosedBracket(c)
  )
    return false;
  // A wrapped sentence continues in lower case on the next line, or with a bracketed aside ("(the default) and …"), or
  // with what cannot open a sentence: a unit or punctuation ("… charging below 0" / "°C contributed to the incidents.",
  // a PDF's line broken inside a figure; decision 0168). A heading is followed by a new start.
  return next.content.length === 0 || !/^(?:[([]?\p{Ll}|[°%‰²³,;:.)\]…])/u.test(next.content);
}

/** Whether a line opens a bracket it does not close. */
function unclosedBracket(line: string): boolean {
  let depth = 0;
  for (const ch of line) {
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
  }
  return depth > 0;
}

type Block = { kind: UnitKind | 'prose'; start: number; end: number };

/**
 * A "#" line that is a comment of program text, not a Markdown heading (decision 0108): an editor's mode line
 * ("# -*- coding: utf-8 -*-"), a line indented as a literal block is (four columns or more), or one with a line of code
 * right above or below it (no blank line between), as in a shell session or a Python example kept as written.
 */
function codeComment(line: Line, open: (Block & { lastContent: string }) | null, next: Line | undefined): boolean {
  if (/-\*-.*-\*-/.test(line.content) || line.contentStart - line.start >= 4) return true;
  if (open?.kind === 'prose' && isCode(open.lastContent)) return true;
  return next !== undefined && next.content.length > 0 && !MARKDOWN_HEADING.test(next.content) && isCode(next.content);
}

/** A paragraph every line of which is program text (a fenced example, a <pre> block, a shell session). */
function codeBlock(paragraph: string): boolean {
  const lines = paragraph
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.length > 0 && (lines.every((l) => isCode(l)) || shellSession(lines));
}

/** A "$ " prompt and the command after it: "$ git status", "$ cat .git/info/exclude". */
const SHELL_PROMPT = /^\$\s+[\p{L}./~_-]/u;
/** A line that reads as a sentence: a capitalised word, three more words, a sentence's end. */
const PROSE_LINE = /^["'\u201c(]?\p{Lu}[\p{Ll}'\u2019]*(?:\s+\S+){3,}[.!?]["'\u201d\u2019)\]]*$/u;

/**
 * A shell session kept as written (decision 0146): a prompt's command first, then what it printed and further commands,
 * no line of it reading as a sentence. Its output lines are no code one by one ("[...]", "*.[oa]", "!foo.html",
 * "arch/foo/kernel/vmlinux.lds.S"), so the paragraph was read as prose and git-manual's gitignore example reached a
 * report as the sentence "*.[oa] $ cat Documentation/.gitignore # ignore generated html files, …".
 */
function shellSession(lines: readonly string[]): boolean {
  return lines.length >= 2 && SHELL_PROMPT.test(lines[0]!) && !lines.some((l) => PROSE_LINE.test(l));
}

function indentOf(line: Line): number {
  return line.contentStart - line.start;
}

/**
 * The last line of a literal block starting at line `from`, after a paragraph ending with a colon whose last line is
 * indented `leadIndent` columns, or null when there is none (decision 0137). A literal block is what reST's "::" and
 * Markdown's indented code are: the lines after the lead-in, across blank lines, indented deeper than it — a Python
 * example kept as written ("@dataclass / class C: / ..."), whose lines one by one need not look like code. Not one that
 * reads as prose (a note's body indented under its directive: a capital, words, a full stop).
 */
function literalBlockEnd(lines: readonly Line[], from: number, leadIndent: number): number | null {
  const first = lines[from]!;
  if (indentOf(first) <= leadIndent || LIST_MARKER.test(first.content) || MARKDOWN_HEADING.test(first.content)) return null;
  let last = from;
  for (let j = from; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.content.length === 0) continue;
    if (indentOf(l) <= leadIndent) break;
    last = j;
  }
  // Its paragraphs (split at blank lines): one that reads as prose makes it a block quote or a note, not code.
  const paragraphs: string[][] = [[]];
  for (const l of lines.slice(from, last + 1)) {
    if (l.content.length > 0) paragraphs[paragraphs.length - 1]!.push(l.content);
    else if (paragraphs[paragraphs.length - 1]!.length > 0) paragraphs.push([]);
  }
  return paragraphs.some((p) => readsAsProse(p)) ? null : last;
}

/** Lines of a paragraph that read as a sentence: words, a full stop at the end, few symbols, no line of code. */
function readsAsProse(paragraph: readonly string[]): boolean {
  if (paragraph.length === 0 || paragraph.some((c) => isCode(c))) return false;
  const text = paragraph.join(' ');
  return (
    /^["'\u201c(]?\p{L}/u.test(text) &&
    /[.!?]["'\u201d\u2019)\]]*$/.test(text) &&
    text.split(/\s+/).length >= 5 &&
    (text.match(/[{}();=<>|&$[\]\\@#]/g) ?? []).length / text.length < 0.03
  );
}

/**
 * Blocks of the text: markdown headings, plain headings, list items, table rows and prose paragraphs.
 * Prose paragraphs are returned whole, to be split into sentences.
 */
function blocks(text: string, opensInProse = false): Block[] {
  const lines = toLines(text);
  const out: Block[] = [];
  // The open prose paragraph or list item, if any (at most one is open at a time).
  let open: (Block & { lastContent: string; lastIndent: number }) | null = null;
  const close = (): void => {
    if (open) out.push({ kind: open.kind, start: open.start, end: open.end });
    open = null;
  };
  // The indentation of the line ending a paragraph with a colon ("… are equivalent:"), closed by a blank line: the
  // paragraphs indented deeper right after it are its literal block (decision 0137); null when none is pending.
  let literalAfter: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const c = line.content;
    const current = open as (Block & { lastContent: string; lastIndent: number }) | null;
    if (c.length > 0 && literalAfter !== null) {
      const end = literalBlockEnd(lines, i, literalAfter);
      literalAfter = null;
      if (end !== null) {
        close();
        out.push({ kind: 'code', start: line.contentStart, end: lines[end]!.contentEnd });
        i = end;
        continue;
      }
    }
    if (c.length === 0 && current?.kind === 'prose' && /:$/.test(current.lastContent)) literalAfter = current.lastIndent;
    if (c.length === 0 || RULE_LINE.test(c)) {
      close();
    } else if ((MARKDOWN_HEADING.test(c) && !codeComment(line, current, lines[i + 1])) || (c.includes('|') && !MARKDOWN_HEADING.test(c))) {
      close();
      out.push({ kind: MARKDOWN_HEADING.test(c) ? 'heading' : 'table-row', start: line.contentStart, end: line.contentEnd });
    } else if (LIST_MARKER.test(c)) {
      close();
      open = { kind: 'list-item', start: line.contentStart, end: line.contentEnd, lastContent: c, lastIndent: indentOf(line) };
    } else if (
      current?.kind === 'list-item' &&
      (line.contentStart > line.start || (/^\p{Ll}/u.test(c) && !/[.!?:;\u2026]["'\u201d\u2019)\]]*$/.test(current.lastContent)))
    ) {
      // An indented line right under a list item continues that item, and so does a line in lower case after an item
      // line that ends mid-sentence: a wrapped line of a PDF's text ("… so that stocked and wild" / "fish can be told
      // apart."), which stood alone as the sentence "fish can be told apart." (decision 0166).
      current.end = line.contentEnd;
      current.lastContent = c;
      current.lastIndent = indentOf(line);
    } else {
      if (current?.kind === 'list-item') close();
      const prose = current?.kind === 'prose' ? current : null;
      const atParagraphStart = prose === null || /[.!?:\u2026]["'\u201d\u2019)\]]*$/.test(prose.lastContent);
      if (!(opensInProse && i === 0) && isPlainHeading(line, lines[i + 1], atParagraphStart)) {
        close();
        out.push({ kind: 'heading', start: line.contentStart, end: line.contentEnd });
      } else if (prose === null) {
        open = { kind: 'prose', start: line.contentStart, end: line.contentEnd, lastContent: c, lastIndent: indentOf(line) };
      } else {
        prose.end = line.contentEnd;
        prose.lastContent = c;
        prose.lastIndent = indentOf(line);
      }
    }
  }
  close();
  return out;
}

/** The word just before position `dot` (a period), back to whitespace or an opening bracket/quote. */
function wordBefore(text: string, dot: number, floor: number): string {
  let s = dot;
  while (s > floor && !isSpace(text[s - 1]) && !OPENERS.includes(text[s - 1])) s--;
  return text.slice(s, dot);
}

function wordAfter(text: string, from: number, limit: number): string {
  let s = from;
  while (s < limit && OPENERS.includes(text[s])) s++;
  let e = s;
  while (e < limit && /[\p{L}\p{N}.']/u.test(text[e])) e++;
  return text.slice(s, e).replace(/\.+$/, '');
}

/** Whether a single period at `dot` belongs to an abbreviation rather than ending the sentence. */
function isAbbreviation(text: string, dot: number, floor: number, next: string): boolean {
  const raw = wordBefore(text, dot, floor);
  const word = raw.toLowerCase();
  if (word.length === 0) return false;
  if (ALWAYS_ABBREVIATIONS.has(word)) return true;
  const nextLower = next.toLowerCase();
  // A number or a numbered code: "accreditation no. NT-118" (velora-recall's test report) as well as "No. 5".
  if (NUMERIC_ABBREVIATIONS.has(word)) return /^\d/.test(next) || /^\s*\p{Lu}{1,4}[-/]?\d/u.test(text.slice(dot + 1, dot + 12));
  const opener = SENTENCE_OPENERS.has(nextLower);
  if (MAYBE_FINAL_ABBREVIATIONS.has(word)) return !opener;
  // Dotted acronyms (U.S., U.K., a.m., Ph.D.) and initials (J. Smith).
  if (/^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(raw) || /^\p{Lu}$/u.test(raw)) return !opener;
  return false;
}

/** Splits one prose paragraph [from, to) into sentences. */
/** A citation or maintenance marker at the start of a text: "[4]", "[note 2]", "[citation needed]". */
const MARKER_AFTER =
  /^\[(?:\d{1,3}|note \d{1,3}|citation needed|clarification needed|verification needed|according to whom\??|dubious|failed verification)\]/i;

function splitProse(text: string, from: number, to: number): Span[] {
  const out: Span[] = [];
  let sentenceStart = from;
  let i = from;
  while (i < to) {
    const ch = text[i];
    if (!TERMINATORS.includes(ch)) {
      i++;
      continue;
    }
    let e = i;
    while (e < to && TERMINATORS.includes(text[e])) e++;
    const run = text.slice(i, e);
    while (e < to && CLOSERS.includes(text[e])) e++;
    // Citation and maintenance markers glued after the full stop ("disputed.[citation needed] Three …", "in 2015.[5]
    // The …") belong to the sentence they follow: the next one starts after them.
    for (let m = MARKER_AFTER.exec(text.slice(e, Math.min(to, e + 48))); m; m = MARKER_AFTER.exec(text.slice(e, Math.min(to, e + 48))))
      e += m[0].length;
    // A terminator glued to the next character is inside a number, URL, e-mail or acronym.
    if (e < to && !isSpace(text[e])) {
      i = e;
      continue;
    }
    let n = e;
    while (n < to && isSpace(text[n])) n++;
    if (n >= to) break;
    const nextChar = text[n];
    if (/\p{Ll}/u.test(nextChar)) {
      i = e;
      continue;
    }
    if (run === '.' && isAbbreviation(text, i, sentenceStart, wordAfter(text, n, to))) {
      i = e;
      continue;
    }
    const s = span(text, sentenceStart, e);
    if (s) out.push(s);
    sentenceStart = n;
    i = n;
  }
  const last = span(text, sentenceStart, to);
  if (last) out.push(last);
  return out;
}

/** Every unit of the text with its kind, in order. */
export function splitUnits(text: string): Unit[] {
  return unitsOf(text, false);
}

/**
 * The units of an evidence excerpt. An excerpt opens with a sentence or a list item of its source (the curator never
 * takes a heading), often in the middle of one of the source's lines: its first line is never a heading. Read as one,
 * a PDF's wrapped sentence lost its first line ("In February 2025 we recalled" / "VB-36 battery packs produced in
 * 2023, after reports …" was quoted from its second line on; decision 0168).
 */
export function splitExcerpt(excerpt: string): Unit[] {
  return unitsOf(excerpt, true);
}

function unitsOf(text: string, opensInProse: boolean): Unit[] {
  const units: Unit[] = [];
  for (const block of blocks(text, opensInProse)) {
    if (block.kind === 'prose' && codeBlock(text.slice(block.start, block.end))) {
      const s = span(text, block.start, block.end);
      if (s) units.push({ ...s, kind: 'code' });
    } else if (block.kind === 'prose') {
      for (const s of splitProse(text, block.start, block.end)) units.push({ ...s, kind: 'sentence' });
    } else {
      const s = span(text, block.start, block.end);
      if (s) units.push({ ...s, kind: block.kind });
    }
  }
  return units;
}

/** Sentences (and headings, list items, table rows as units of their own) with offsets into `text`. */
export function splitSentences(text: string): Span[] {
  return splitUnits(text).map(({ text: t, start, end }) => ({ text: t, start, end }));
}

/** Offset of the first character after a list marker ("- ", "1. ", "a) "), or 0 when there is none. */
export function listMarkerLength(unitText: string): number {
  const m = LIST_MARKER.exec(unitText);
  return m ? m[0].length : 0;
}

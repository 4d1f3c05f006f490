/**
 * reStructuredText → the text a reader sees, as markdown-text.ts does for Markdown: evidence offsets index into the
 * stored text, so a quote is an exact slice of it and never shows a role (":func:`run`"), a literal's backquotes
 * ("``text=True``"), a directive (".. note::", ".. versionadded:: 3.9"), a substitution ("|version|"), a link target or
 * a comment as if the author had written them. Line by line, so headings, list items and paragraphs stay units of
 * their own. Literal blocks (after "::", in code directives) are kept as written, like fenced code in Markdown.
 * Section titles become Markdown headings (`#`, `##` … in the order their adornment styles first appear): the sentence
 * splitter reads them as headings, and no sentence quotes one.
 */

/** A directive line: `.. name:: arguments` (names may carry a domain: `.. py:function::`). */
const DIRECTIVE = /^(\s*)\.\.\s+((?:[A-Za-z][\w-]*:)?[A-Za-z][\w-]*)::(?:\s+(.*))?$/;
/** An explicit markup line that is not a directive: a comment, a link target (`.. _name:`), a substitution definition. */
const EXPLICIT = /^(\s*)\.\.(?:\s|$)/;
/** A footnote or citation (`.. [1] text`, `.. [#name] text`): its text is prose. */
const FOOTNOTE = /^(\s*)\.\.\s+\[(?:#[\w-]*|\d+|\*|[A-Za-z][\w.-]*)\]\s+(.*)$/;
/** A section adornment: one punctuation character repeated (`=====`, `-----`, `^^^^`). */
const ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}\s*$/;
/** A directive option under a directive (`   :synopsis: …`, `   :noindex:`). */
const OPTION = /^\s+:[\w-][\w\s.-]*:(?:\s.*)?$/;

/** Directives that describe an object: their argument is the object's signature, a term line the content defines. */
const DESCRIPTIONS = new Set([
  'function',
  'method',
  'class',
  'attribute',
  'property',
  'data',
  'exception',
  'decorator',
  'decoratormethod',
  'classmethod',
  'staticmethod',
  'abstractmethod',
  'coroutinefunction',
  'coroutinemethod',
  'awaitablefunction',
  'awaitablemethod',
  'opcode',
  'cmdoption',
  'option',
  'envvar',
  'describe',
  'object',
  'pdbcommand',
  'type',
  'macro',
  'member',
  'var',
  'confval',
]);
/** Directives whose argument, if any, is prose (a title); their content is prose. */
const PROSE = new Set([
  'note',
  'warning',
  'important',
  'caution',
  'tip',
  'hint',
  'attention',
  'danger',
  'error',
  'seealso',
  'admonition',
  'topic',
  'sidebar',
  'rubric',
  'impl-detail',
  'container',
  'centered',
  'hlist',
  'glossary',
  'list-table',
  'csv-table',
  'table',
  'only',
]);
/** Directives whose content is code, kept as written. */
const CODE = new Set(['code-block', 'code', 'sourcecode', 'doctest', 'testcode', 'testoutput', 'parsed-literal', 'productionlist', 'math']);
/** Directives shown as a sentence of their own, as Sphinx renders them. */
const VERSIONS: Readonly<Record<string, string>> = {
  versionadded: 'New in version',
  versionchanged: 'Changed in version',
  deprecated: 'Deprecated since version',
  'deprecated-removed': 'Deprecated since version',
};
// Every other directive (index, toctree, module, moduleauthor, sectionauthor, include, testsetup, audit-event,
// highlight, currentmodule, tabularcolumns, contents, raw, …) is apparatus: it and its content are left out.

/**
 * reST, by its file name (`.rst`, `.rst.txt`) or by its markup: at least three roles, directives or double-backquoted
 * literals, one of them a role or a directive. Plain text seldom has any.
 */
export function looksLikeRest(text: string, fileName = ''): boolean {
  if (/\.rst(?:\.txt)?$/i.test(fileName)) return true;
  const sample = text.slice(0, 200_000);
  const directives = sample.match(/^\s*\.\. [A-Za-z][\w:-]*::/gm)?.length ?? 0;
  const roles = sample.match(/(?<![\w`]):(?:[A-Za-z][\w-]*:){1,2}`[^`\n]+`/g)?.length ?? 0;
  const literals = sample.match(/``[^`\n]+``/g)?.length ?? 0;
  return directives + roles > 0 && directives + roles + literals >= 3;
}

/** A role's content as Sphinx shows it: the title of `title <target>`, `~a.b.c` as `c`, `!x` as `x`. */
function roleText(role: string, content: string): string {
  const titled = /^([\s\S]*?\S)\s*<[^<>]+>$/.exec(content);
  if (titled?.[1]) return titled[1];
  let text = content.replace(/^!/, '');
  if (text.startsWith('~')) text = text.slice(1).split('.').pop() ?? text;
  text = text.replace(/^\./, '');
  const name = role.toLowerCase().replace(/:$/, '').replace(/^.*:/, '');
  if (name === 'pep') return `PEP ${text}`;
  if (name === 'rfc') return `RFC ${text}`;
  // Python's tracker references, as its documentation shows them: a bare "28524" opened the sentence after "See" (0168).
  if (name === 'issue') return `bpo-${text}`;
  if (name === 'gh') return `gh-${text}`;
  return text;
}

// Inline markup starts and ends only at the boundaries reST requires, so `*args` and `**kwargs` stay as written.
const MARKUP_START = String.raw`(?<=^|[\s([{<'"/:-])`;
const MARKUP_END = String.raw`(?=$|[\s)\]}>'"/:.,;!?-])`;
/** Emphasis or strong on one line. */
const EMPHASIS = new RegExp(String.raw`${MARKUP_START}(\*\*?)(?=[^\s*])([^*\n]*?[^\s*\\])\1${MARKUP_END}`, 'g');
/** Strong emphasis over a line break, joined above: the words keep their line break. */
const STRONG_OVER_LINES = new RegExp(String.raw`${MARKUP_START}\*\*(?=[^\s*])([^*]*?\n[^*]*?[^\s*\\])\*\*${MARKUP_END}`, 'g');

/** Inline markup outside roles and literals: emphasis, strong, substitutions, footnote references, escapes. */
function restProse(text: string): string {
  return (
    text
      // Footnote and citation references (`[#]_`, `[1]_`, `[CIT2002]_`) with the space before them.
      .replace(/\s?\[(?:#[\w-]*|\d+|\*|[A-Za-z][\w.-]*)\]_(?!\w)/g, '')
      .replace(EMPHASIS, '$2')
      .replace(STRONG_OVER_LINES, '$1')
      // Substitution references (`|version|`).
      .replace(/(?<=^|[\s([{'"])\|([^\s|](?:[^|\n]*[^\s|])?)\|(?:__?)?(?=$|[\s)\]}'".,;:!?/-])/g, '$1')
      // An escaped space joins (":class:`int`\\ s"); other escapes keep their character.
      .replace(/\\ /g, '')
      .replace(/\\([\\`*_|:<>[\]])/g, '$1')
  );
}

/** One line of reST prose as plain text: roles and literals keep their text (no backquotes), prose loses its markup. */
export function restInline(line: string): string {
  const INLINE =
    /(?<![\w`]):((?:[A-Za-z][\w.+-]*:){1,2})`((?:[^`\\]|\\.)+?)`|``([\s\S]+?)``(?!`)|(?<![\w`])`((?:[^`\\]|\\.)+?)`(?:__?|:[A-Za-z][\w-]*:)?(?![\w`])/g;
  let out = '';
  let last = 0;
  for (const m of line.matchAll(INLINE)) {
    out += restProse(line.slice(last, m.index));
    if (m[1] !== undefined) out += roleText(m[1], m[2] ?? '');
    else if (m[3] !== undefined) out += m[3];
    else out += roleText('', m[4] ?? '');
    last = m.index + m[0].length;
  }
  return out + restProse(line.slice(last));
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

/**
 * reST as a reader sees it (see the module's comment). Directive lines go, except the signature of an object's
 * description (kept as a term line), the title of an admonition or rubric, and a version note ("New in version 3.9.",
 * "Changed in version 3.2: …"); apparatus directives (index, toctree, module, authors, audit events, test setup …),
 * comments, link targets and substitution definitions go with their content; directive options go.
 */
export function restToText(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  const styles: string[] = [];
  /** Lines indented deeper than this are dropped (apparatus) or kept verbatim (code): -1 when none. */
  let skipAbove = -1;
  let codeAbove = -1;
  /** Right after a directive line: its options follow, indented. */
  let optionsAbove = -1;
  /** A paragraph ended with "::": the indented block after it is code. */
  let literalAfter = -1;
  const heading = (title: string, style: string): string => {
    if (!styles.includes(style)) styles.push(style);
    const level = Math.min(6, styles.indexOf(style) + 1);
    return `${'#'.repeat(level)} ${restInline(title.trim())}`;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const blank = line.trim() === '';
    const indent = indentOf(line);

    if (skipAbove >= 0) {
      if (blank || indent > skipAbove) continue;
      skipAbove = -1;
    }
    if (optionsAbove >= 0) {
      if (!blank && indent > optionsAbove && OPTION.test(line)) continue;
      optionsAbove = -1;
    }
    if (codeAbove >= 0) {
      if (blank || indent > codeAbove) {
        out.push(line);
        continue;
      }
      codeAbove = -1;
    }
    if (literalAfter >= 0 && !blank) {
      if (indent > literalAfter) {
        codeAbove = literalAfter;
        literalAfter = -1;
        out.push(line);
        continue;
      }
      literalAfter = -1;
    }
    if (blank) {
      out.push('');
      continue;
    }

    // Section titles: a text line under an adornment (and over one, when overlined).
    const next = lines[i + 1];
    const content = line.trim();
    if (ADORNMENT.test(line)) {
      const title = next?.trim() ?? '';
      const under = lines[i + 2];
      if (title !== '' && !ADORNMENT.test(next!) && under !== undefined && ADORNMENT.test(under) && under.trim()[0] === content[0]) {
        out.push(heading(title, `${content[0]}${content[0]}`), '', '');
        i += 2;
      } else out.push(''); // a transition, or an underline already consumed
      continue;
    }
    if (indent === 0 && next !== undefined && ADORNMENT.test(next) && next.trim().length >= Math.min(content.length, 3)) {
      out.push(heading(content, next.trim()[0]!), '');
      i += 1;
      continue;
    }

    const directive = DIRECTIVE.exec(line);
    if (directive) {
      const [, lead = '', rawName = '', args = ''] = directive;
      const name = rawName.toLowerCase().replace(/^\w+:/, '');
      optionsAbove = indent;
      if (DESCRIPTIONS.has(name)) out.push(args.trim() === '' ? '' : lead + args.trim());
      else if (PROSE.has(name)) out.push(args.trim() === '' ? '' : lead + restInline(args.trim()));
      else if (VERSIONS[name] !== undefined) {
        const [version = '', ...rest] = args.trim().split(/\s+/);
        const said = restInline(rest.join(' ').trim());
        const inlineContent = lines[i + 1] !== undefined && lines[i + 1]!.trim() !== '' && indentOf(lines[i + 1]!) > indent;
        out.push(`${lead}${VERSIONS[name]} ${version}${said !== '' ? `: ${said}` : inlineContent ? ':' : '.'}`);
      } else if (CODE.has(name)) {
        out.push('');
        codeAbove = indent;
      } else if (name === 'availability') out.push(`${lead}Availability: ${restInline(args.trim())}.`);
      else {
        out.push('');
        skipAbove = indent;
        optionsAbove = -1;
      }
      continue;
    }
    // A footnote's text is prose, without its marker.
    const footnote = FOOTNOTE.exec(line);
    if (!footnote && EXPLICIT.test(line)) {
      // A comment, a link target or a substitution definition, with whatever is indented under it.
      out.push('');
      skipAbove = indent;
      continue;
    }

    // A paragraph ending in "::" introduces a literal block: "Example::" reads "Example:", a lone "::" goes.
    // Inline markup may run over a line break (":ref:`Using gather() to run things\n<gather-example>`"): a line with an
    // odd number of backquotes takes the paragraph's next lines until the markup closes.
    let prose = footnote ? (footnote[1] ?? '') + (footnote[2] ?? '') : line;
    // So may strong emphasis ("**execute\n   arbitrary code during unpickling**"): a line with an odd number of "**".
    const open = (p: string) => (p.match(/`/g)?.length ?? 0) % 2 === 1 || (p.match(/\*\*/g)?.length ?? 0) % 2 === 1;
    for (let more = 0; more < 3 && open(prose); more++) {
      const following = lines[i + 1];
      if (following === undefined || following.trim() === '' || EXPLICIT.test(following) || ADORNMENT.test(following)) break;
      prose += `\n${following}`;
      i++;
    }
    if (/::\s*$/.test(prose)) {
      literalAfter = indent;
      prose = /(^|\s)::\s*$/.test(prose) ? prose.replace(/\s*::\s*$/, '') : prose.replace(/::\s*$/, ':');
      if (prose.trim() === '') {
        out.push('');
        continue;
      }
    }
    out.push(' '.repeat(indent) + restInline(prose.slice(indent)));
  }
  return out
    .join('\n')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

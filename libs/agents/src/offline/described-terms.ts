import { isLabel, isOptionLabel, isSignature } from './passage-relevance';
import { splitUnits, type Unit } from './nlp/sentences';

/*
 * The term a quoted sentence describes, for the report to show beside it (decision 0153). A manual describes an option,
 * a sub-command or a function under a term line of its own: "When used with the push and save commands, all untracked
 * files are also stashed and then cleaned up with git clean." stands under "-u" / "--include-untracked", and "Like pop,
 * but do not remove the state from the stash list." under "apply [--index] [-q|--quiet] [<stash>]". Quoted without
 * it, the sentence does not say what it is about. The curator reads these labels to score a sentence (0039, 0151); the
 * report shows them.
 *
 * Only labels shaped like a term of a manual or a reference count: an option term line, a call signature, a
 * sub-command's synopsis, a dotted configuration key. A heading names a section, and a short line without a full stop
 * in prose (a byline, "Kessmark Regional Water Authority, Hydrometry Section") is no term of what follows it.
 */

/**
 * A sub-command's synopsis: a word, then only bracketed, angled or option tokens ("pop [--index] [-q|--quiet] [<stash>]",
 * "push [-k|--[no-]keep-index] [(-m|--message) <message>] …", brackets nested).
 */
function isSynopsis(text: string): boolean {
  const m = /^[a-z][\w-]*\s+(\S.*)$/.exec(text);
  return m !== null && m[1]!.length <= 400 && m[1]!.split(/\s+/).every((t) => /[[\]<>{}|…]|^-{1,2}[\w[]|^--$/.test(t));
}
/** A constant's term line ("OP_ALL", "GIT_DIR"): capitals joined by an underscore. */
const CONSTANT = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;
/**
 * A reference's version note ("Changed in version 3.3:", "New in version 3.4."): part of the entry it stands in, not a
 * label ending it.
 */
const VERSION_NOTE = /^(?:new in|changed in|deprecated (?:since|in)) version\b/i;
/** A value's or a strategy's term line: one lower-case word on its own ("ort", "octopus", "maxlen"). */
const IDENTIFIER = /^[a-z][\w-]+$/;
/** A placeholder's term line ("<pathspec>…", "<commit>"). */
const PLACEHOLDER = /^<[\w-]+>(?:…|\.\.\.)?$/;
/** A dotted configuration key ("stash.showIncludeUntracked", "merge.conflictStyle"). */
const CONFIG_KEY = /^[A-Za-z][\w-]*(?:\.[A-Za-z<][\w<>-]*)+$/;
/** A reference's class or exception entry ("class json.JSONEncoder(*, skipkeys=False, …)"). */
const DECLARATION = /^(?:class|exception)\s+(?=[A-Za-z_])/;
/** A signature longer than this is shown by its name ("subprocess.run()"): its parameters are not what a reader needs. */
const SIGNATURE_SHOWN_CHARS = 60;
/**
 * A term's description runs on to the next label (as an option's does for the curator, decision 0151), over this many
 * units at most: git's manual gives each paragraph of a description a paragraph of its own.
 */
const DESCRIPTION_UNITS = 8;
/** Term lines of one entry ("-u", "--include-untracked", "--no-include-untracked"): at most this many shown. */
const MAX_TERM_LINES = 4;

/** The most a shown term holds (report.json's bound on `term`), "…" included. */
const MAX_TERM_CHARS = 300;

/** A text up to the token that passes `max` characters, then "…": a long synopsis's sub-command and first options. */
function clipAtToken(text: string, max = SIGNATURE_SHOWN_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 2);
  return `${text.slice(0, cut > 0 ? cut : max - 2)} …`;
}

function asSignature(u: Unit): Unit {
  return { ...u, text: u.text.trim().replace(DECLARATION, '') };
}

/** How a term line is shown, or null when the label is not a term (a heading, a byline, a caption). */
function termShown(u: Unit): string | null {
  const text = u.text.trim();
  // A synopsis's "|" ("[-q|--quiet]") makes it read as a table row.
  if (isSynopsis(text)) return clipAtToken(text);
  // So does an option's ("--fixup=[(amend|reword):]<commit>").
  if (u.kind === 'table-row' && isOptionLabel({ ...u, kind: 'sentence' })) return text;
  // A constant in capitals on its own line reads as a heading to the splitter ("OP_ALL"); a signature as code.
  if (u.kind === 'heading' && CONSTANT.test(text)) return text;
  if (u.kind === 'code') return ends(u) ? termShown({ ...u, kind: 'sentence' }) : null;
  if (u.kind === 'heading' || u.kind === 'table-row' || !isLabel(u)) return null;
  if (
    isOptionLabel(u) ||
    PLACEHOLDER.test(text) ||
    IDENTIFIER.test(text) ||
    CONSTANT.test(text) ||
    (CONFIG_KEY.test(text) && !/^www\./i.test(text))
  )
    return text;
  const signature = asSignature(u);
  if (isSignature(signature)) {
    const shown = signature.text.trim();
    return shown.length <= SIGNATURE_SHOWN_CHARS ? shown : `${shown.slice(0, shown.indexOf('('))}()`;
  }
  return null;
}

/** Whether the next label after unit `i`, within a description's length, is a term: unit `i` stands inside a list. */
function insideList(units: readonly Unit[], i: number): boolean {
  for (let k = i + 1; k < units.length && k <= i + DESCRIPTION_UNITS; k++) if (ends(units[k]!)) return termShown(units[k]!) !== null;
  return false;
}

/**
 * A label that ends a description: any but a version note or a lead-in. Program text is part of a description (its example), but
 * for a signature on a line of its own, which reStructuredText's indentation makes a code unit ("assertLogs(logger=None,
 * level=None)").
 */
function ends(u: Unit): boolean {
  if (u.kind === 'code') return isSignature(asSignature({ ...u, kind: 'sentence' }));
  // A lead-in ("It has two attributes:", "Example:") introduces more of the same description.
  return isLabel(u) && !VERSION_NOTE.test(u.text.trim()) && !/:$/.test(u.text.trim());
}

/**
 * For each excerpt of a text (by its offsets), the term its first sentence describes, as the report shows it; null when
 * it stands under none. An option's term lines are shown together ("-u, --include-untracked, --no-include-untracked").
 */
export function describedTerms(text: string, excerpts: readonly { start: number; end: number }[]): (string | null)[] {
  if (excerpts.length === 0) return [];
  const units = splitUnits(text);
  return excerpts.map((e) => {
    const i = units.findIndex((u) => u.end > e.start && u.start < e.end);
    if (i < 0) return null;
    // The nearest label above, with nothing but its description between: a heading, or a label that is no term, ends it.
    let j = i - 1;
    for (let read = 0; j >= 0 && read < DESCRIPTION_UNITS && !ends(units[j]!); j--) read++;
    if (j < 0 || !ends(units[j]!)) return null;
    // Past the description's first paragraph, the paragraph must be inside the list: the next label after it is another
    // entry's term. After a list's last entry, a paragraph about the whole list ("With the strategies that use 3-way
    // merge …" after "subtree") is no description of that entry.
    if (/\n[ \t]*\n/.test(text.slice(units[j + 1]!.end, units[i]!.start)) && !insideList(units, i)) return null;
    const first = termShown(units[j]!);
    if (first === null || !isOptionLabel(units[j]!)) return first === null ? null : clipAtToken(first, MAX_TERM_CHARS);
    // The option's other term lines stand right above it, each a line of its own.
    const lines = [first];
    for (let k = j - 1; k >= 0 && isOptionLabel(units[k]!) && lines.length < MAX_TERM_LINES; k--) lines.unshift(units[k]!.text.trim());
    return clipAtToken(lines.join(', '), MAX_TERM_CHARS);
  });
}

/** A passage of a source, by its offsets: an evidence row. */
export interface SourcePassage {
  id: string;
  snapshotId: string;
  start: number;
  end: number;
}

/**
 * The term each passage stands under (`describedTerms`), by passage id; a passage whose source text is not given is
 * left out. Each source's text is split once, for all its passages.
 */
export function passageTerms(
  passages: readonly SourcePassage[],
  texts: ReadonlyMap<string, string | undefined>,
): Map<string, string | null> {
  const bySource = new Map<string, SourcePassage[]>();
  for (const p of passages) bySource.set(p.snapshotId, [...(bySource.get(p.snapshotId) ?? []), p]);
  const out = new Map<string, string | null>();
  for (const [snapshotId, rows] of bySource) {
    const text = texts.get(snapshotId);
    if (text !== undefined) describedTerms(text, rows).forEach((term, i) => out.set(rows[i]!.id, term));
  }
  return out;
}

/** The term every one of the passages stands under, or null (none, several, or one not known). */
export function commonTerm(passageIds: readonly string[], terms: ReadonlyMap<string, string | null>): string | null {
  const found = passageIds.map((id) => terms.get(id) ?? null);
  return found.length > 0 && found.every((t) => t !== null && t === found[0]) ? found[0]! : null;
}

/**
 * Whether two statements describe different terms: each stands under a term, and they differ ("--include=<path-pattern>"
 * and "-n, --non-matching"). Such statements are about two things, so they cannot disagree (decision 0154).
 */
export function differentTerms(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === 'string' && typeof b === 'string' && a !== b;
}

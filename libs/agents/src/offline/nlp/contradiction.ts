import { jaccard } from './near-duplicates';
import { comparable, extractQuantities, figureRoles, isTime, sameQuantity, type Quantity } from './quantities';
import { negationCues, statementStems } from './statement-terms';
import { contentStems, stem, tokenize } from './tokens';

const NEGATION_WORDS = new Set(['not', 'no', 'never', 'neither', 'nor', 'without', 'cannot', 'none', 'nobody', 'nothing']);

/*
 * Rule-based contradiction between two statements about the same subject: conflicting figures (same unit,
 * other unit after conversion, or other dates) or opposite polarity with the rest nearly equal.
 */

export type ContradictionKind = 'negation' | 'number' | 'unit' | 'date';

export interface ContradictionFinding {
  kind: ContradictionKind;
  note: string;
}

/** Jaccard of the non-numeric content stems from which two statements count as being about the same thing. */
export const SAME_SUBJECT_THRESHOLD = 0.5;
/**
 * A polarity clash needs the rest of the two statements to be nearly the same: this share of the shorter one's terms
 * in the longer ("X caused the decline" / "X did not cause the decline of the lake").
 */
export const NEGATION_OVERLAP_THRESHOLD = 0.75;
/** Figures further apart than this (relative) disagree. */
export const NUMBER_TOLERANCE = 0.05;

/** A figure as it is compared: what it measures. */
interface Figure {
  q: Quantity;
  dimension: string;
  /** For a date, the stems of the words that lead to it: what it dates ("opened in", "produced in weeks 08 to 41 of"). */
  lead?: Set<string>;
}

/**
 * How many content words before a date say what it dates: the nearest one. "12 packs from 2024" dates packs and "weeks
 * 08 to 41 of 2023" weeks; two words reached "affected weeks" in the first and made them one event.
 */
const DATE_LEAD_WORDS = 1;

/** The content stems of the few words before a date, within its clause. */
function dateLead(text: string, q: Quantity): Set<string> {
  const clause =
    text
      .slice(Math.max(0, q.start - 80), q.start)
      .split(/[;:]|,\s+(?:and|but|while)\b/)
      .at(-1) ?? '';
  return new Set(
    contentStems(clause)
      .filter((t) => !/^\d/.test(t))
      .slice(-DATE_LEAD_WORDS),
  );
}

/**
 * Two dates date the same thing when the words that lead to them share one ("opened in April 2016" / "the canal, which
 * opened in 2018"). "Each group held 12 packs from the affected weeks and 12 packs from 2024" dates a sample, not when
 * the affected packs "were produced in weeks 08 to 41 of 2023", and was a dispute (velora-recall q07; decision 0169).
 */
function sameEvent(a: Figure, b: Figure): boolean {
  if (!a.lead || !b.lead) return true;
  for (const t of a.lead) if (b.lead.has(t)) return true;
  return false;
}

/**
 * The figures of a statement that can conflict with another's, by what they measure. An identifier's number ("weeks 08
 * to 41") measures nothing; the date a count runs up to ("up to 31 January 2025") compares only with such dates, not
 * with when something happened ("first received a report in March 2024"; decision 0168).
 */
function comparedFigures(text: string, quantities: readonly Quantity[]): Figure[] {
  const roles = figureRoles(text, quantities);
  return quantities.flatMap((q, i) =>
    roles[i] === 'label'
      ? []
      : [
          isTime(q)
            ? { q, dimension: roles[i] === 'as-of' ? 'time:as-of' : 'time', lead: dateLead(text, q) }
            : { q, dimension: `${q.kind}:${q.unit ?? ''}` },
        ],
  );
}

function format(value: number): string {
  return String(Number(value.toPrecision(3)));
}

function figureConflict(fa: readonly Figure[], fb: readonly Figure[]): ContradictionFinding | null {
  const dims = [...new Set(fa.map((f) => f.dimension))].filter((d) => fb.some((f) => f.dimension === d));
  for (const dim of dims) {
    if (dim.startsWith('time')) {
      // Dates conflict only when they date the same thing; any such pair that agrees settles it.
      const pairs = fa
        .filter((f) => f.dimension === dim)
        .flatMap((x) => fb.filter((y) => y.dimension === dim && sameEvent(x, y)).map((y) => [x.q, y.q] as const));
      if (pairs.length === 0 || pairs.some(([x, y]) => sameQuantity(x, y, NUMBER_TOLERANCE))) continue;
      const [x, y] = pairs[0]!;
      return { kind: 'date', note: `${x.raw} vs ${y.raw}` };
    }
    const as = fa.filter((f) => f.dimension === dim).map((f) => f.q);
    const bs = fb.filter((f) => f.dimension === dim).map((f) => f.q);
    const agree = as.some((a) => bs.some((b) => comparable(a, b) && sameQuantity(a, b, NUMBER_TOLERANCE)));
    if (agree) continue;
    const a = as[0];
    const b = bs[0];
    if (a.sourceUnit !== b.sourceUnit && a.unit !== null) {
      return { kind: 'unit', note: `${a.raw} (${format(a.value)} ${a.unit}) vs ${b.raw} (${format(b.value)} ${b.unit})` };
    }
    return { kind: 'number', note: `${a.raw} vs ${b.raw}` };
  }
  return null;
}

function containment(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / small.size;
}

/** A statement analysed once, for comparing it with many others. */
export interface PreparedStatement {
  quantities: Quantity[];
  /** The figures that can conflict with another statement's, by what they measure (`comparedFigures`). */
  figures: Figure[];
  stems: Set<string>;
  /** Negation cues of the main clause: a negation inside a condition ("if … not …") denies nothing (decision 0098). */
  cues: string[];
  /** Stems of the few words after each negation cue: what the negation is about ("did not cause" → cause). */
  negated: Set<string>;
  /** The API names the statement is about ("vm.runInContext", "--test-only", "importModuleDynamically"). */
  identifiers: Set<string>;
}

/**
 * A conditional clause, from its conjunction to the next comma, semicolon, colon or the sentence's end: "If Node.js
 * was not started with --test-only, …", "… only if the process was not killed", "whether or not to run only tests".
 * What it negates is a condition, not a denial of what another statement says (decision 0098).
 */
const CONDITION = /\b(?:if|unless|when|whenever|whether|in case|provided(?: that)?|as long as)\b[^,;:]*?(?=[,;:]|[.!?](?=\s|$)|$)/gi;

/** The statement with its conditional clauses blanked out (same length, so offsets still hold). */
export function outsideConditions(text: string): string {
  return text.replace(CONDITION, (m) => ' '.repeat(m.length));
}

/**
 * Names of code a documentation sentence is about: a dotted or called name ("vm.runInContext()", "process.channel",
 * "import()"), a command-line flag ("--test-only"), a camelCase or snake_case name ("importModuleDynamically",
 * "napi_set_instance_data"). Product names ("Node.js") and abbreviations ("e.g.") are not.
 */
const IDENTIFIER =
  /(?<=^|[\s(`'"{[])(?:--?[a-z][\w-]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?|[A-Za-z_$][\w$]*\(\)|[a-z][a-z0-9]*[A-Z][\w$]*|[a-z][a-z0-9]*_[\w$]+)/g;

export function codeIdentifiers(text: string): Set<string> {
  const out = new Set<string>();
  for (const [raw] of text.matchAll(IDENTIFIER)) {
    const name = raw.replace(/\(\)$/, '');
    if (/^[A-Z][a-z]+\.js$/.test(name) || name.split('.').every((part) => part.length <= 1)) continue;
    out.add(name);
  }
  return out;
}

/** Both statements name code, and no name is common to them: they are about different APIs (decision 0098). */
export function differentIdentifiers(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size > 0 && b.size > 0 && ![...a].some((name) => b.has(name));
}

/** How many words after a negation cue it can reach ("did not directly cause"). */
const NEGATION_REACH = 3;

function negatedStems(text: string): Set<string> {
  const tokens = tokenize(text);
  const out = new Set<string>();
  tokens.forEach((t, i) => {
    const failedTo = /^fail(?:s|ed|ing)?$/.test(t) && tokens[i + 1] === 'to';
    if (!NEGATION_WORDS.has(t) && !t.endsWith("n't") && !failedTo) return;
    for (const next of tokens.slice(i + 1, i + 1 + NEGATION_REACH)) out.add(stem(next));
  });
  return out;
}

/**
 * A connective opening a statement ("On this basis the water level fell by 5.0 metres …") ties it to the sentence
 * before it; its words say nothing of the subject, and counted as subject terms they kept that figure from being
 * compared with the same quantity stated without one.
 */
const OPENING_CONNECTIVE =
  /^\s*(?:on (?:this|that|these|those) bas[ie]s|on balance|however|in contrast|by contrast|by comparison|thus|therefore|accordingly|consequently|as a result|in other words|in short|overall|in total|in sum|taken together)\b,?/i;

export function prepareStatement(text: string): PreparedStatement {
  const quantities = extractQuantities(text);
  const main = outsideConditions(text);
  // Blanked, not cut, so the figures' offsets still hold.
  const subject = text.replace(OPENING_CONNECTIVE, (m) => ' '.repeat(m.length));
  return {
    quantities,
    figures: comparedFigures(text, quantities),
    stems: statementStems(subject, quantities),
    cues: negationCues(main),
    negated: negatedStems(main),
    identifiers: codeIdentifiers(text),
  };
}

/**
 * A contradiction between two statements, or null when they agree, are about different subjects, or cannot
 * be compared. Statements conflict on figures when, for a kind of figure both state, no pair agrees within 5%.
 */
export function detectContradiction(a: string, b: string): ContradictionFinding | null {
  return contradictionBetween(prepareStatement(a), prepareStatement(b));
}

/** detectContradiction over prepared statements (for all-pairs comparisons). */
export function contradictionBetween(a: PreparedStatement, b: PreparedStatement): ContradictionFinding | null {
  const overlap = jaccard(a.stems, b.stems);
  if (overlap < SAME_SUBJECT_THRESHOLD || differentIdentifiers(a.identifiers, b.identifiers)) return null;
  const figures = figureConflict(a.figures, b.figures);
  if (figures) return figures;
  const cuesA = a.cues;
  const cuesB = b.cues;
  // The negation must bear on what both say ("did not cause" beside "caused"), not on an aside ("which has no lift").
  const negatesShared = (n: PreparedStatement, other: PreparedStatement) => [...n.negated].some((t) => other.stems.has(t));
  const clash = cuesA.length > 0 ? negatesShared(a, b) : negatesShared(b, a);
  if (cuesA.length > 0 !== cuesB.length > 0 && clash && containment(a.stems, b.stems) >= NEGATION_OVERLAP_THRESHOLD) {
    const [negated, cues] = cuesA.length > 0 ? ['first', cuesA] : ['second', cuesB];
    return { kind: 'negation', note: `only the ${negated} statement is negated ("${cues.join('", "')}")` };
  }
  return null;
}

import { namePoint, periodOf } from './dispute-reason';
import { extractQuantities, isTime, type Quantity } from './quantities';
import { normalizeWhitespace, statementStems } from './statement-terms';
import { QUESTION_WORDS } from './tokens';
import { questionParts } from '../question-parts';

/*
 * The answer in brief with the bases of its figures (issue 25 item 4, decision 0127): a disputed figure is given with
 * what it compares, as the dispute's own sentences say ("4.2 metres comparing annual means, 6.1 metres comparing
 * seasonal extremes"), and the dispute is named, so a reader never takes two figures that disagree for two findings.
 * Built only from the sides and the reason "Where the sources disagree" shows, which are cited and verified; the words
 * added are ours and state no fact.
 */

/** One disputed point: the sides shown, and the sentence closing it (a source's reason, or our words). */
export interface BriefDispute {
  sides: readonly string[];
  reason?: string | null;
}

/** What a figure compares, in a clause: "compares seasonal extremes" → "comparing seasonal extremes". */
const COMPARES = /\bcompar(?:es|ed|ing|e)\s+((?:(?!\b(?:whereas|while|but)\b)[^,;.()])+)/i;
/** A series or record the figure is read from: "the authority's annual-mean series" → "on the annual-mean series". */
const SERIES =
  /\b((?:annual|monthly|seasonal|daily)[- ](?:mean|average|minimum|maximum)|mean|minimum|maximum|satellite|gauge)\s+(series|record|levels?)\b/i;
/** A basis in brackets right after the figure: "18% (annual mean)". */
const BRACKETED =
  /^\s*\(((?:annual|monthly|seasonal|autumn|spring|summer|winter)?\s*(?:mean|average|minimum|maximum|low|high|extremes?))\)/i;
/** Clause boundaries inside a sentence: each figure's basis is the one its own clause names. */
const CLAUSE = /;|,\s*(?:whereas|while|but|and)\s+|\s+whereas\s+|\s+while\s+/i;
/** At most this many disputed points are answered in brief (the rest are named under "Where the sources disagree"). */
const MAX_POINTS = 3;

function sameFigure(a: Quantity, b: Quantity): boolean {
  return a.kind === b.kind && a.unit === b.unit && Math.abs(a.value - b.value) < 1e-9;
}

/** The first figure of a statement that is not a point in time, less its attribution ("…, according to …"). */
function leadFigure(statement: string): Quantity | null {
  const core = normalizeWhitespace(statement).replace(/,?\s*according to [^,.;]+/i, '');
  return extractQuantities(core).find((q) => !isTime(q)) ?? null;
}

/**
 * What a figure rests on, as the dispute's sentences say it: what it compares ("comparing annual means"), the series it
 * is read from ("on the annual-mean series"), or the basis bracketed after it ("(annual mean)"). The clause holding the
 * figure is read, so "the 6.1 m compares seasonal extremes, whereas the 4.2 m compares annual means" gives each its own.
 * Null when no sentence says.
 */
export function basisOfFigure(figure: Quantity, sentences: readonly string[]): string | null {
  for (const sentence of sentences) {
    const text = normalizeWhitespace(sentence).replace(/[.!?]+$/, '');
    for (const clause of text.split(CLAUSE)) {
      const own = extractQuantities(clause).filter((q) => sameFigure(q, figure));
      if (own.length === 0) continue;
      // A basis bracketed right after the figure is the figure's own, whatever else the clause holds.
      const bracketed = BRACKETED.exec(clause.slice(own[0]!.end));
      if (bracketed) return `(${bracketed[1]!.trim().toLowerCase()})`;
      // Another figure of the same kind in the clause makes its basis ambiguous ("4.2 m against 6.1 m comparing …").
      if (extractQuantities(clause).some((q) => !isTime(q) && q.unit === figure.unit && !sameFigure(q, figure))) continue;
      const compared = COMPARES.exec(clause);
      if (compared) return `comparing ${compared[1]!.trim()}`;
      const series = SERIES.exec(clause);
      if (series) return `on the ${series[1]!.toLowerCase()} ${series[2]!.toLowerCase()}`;
    }
  }
  return null;
}

function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * Content stems of the question without its setting's names ("Lake Varen"), which every point shares, and without the
 * words that ask ("far" in "How far did …"), which a point names too ("how far the number of fishing licences fell").
 */
function questionStems(question: string): Set<string> {
  const words = question
    .replace(/(?<=\S\s+)\p{Lu}[\p{L}'’-]*/gu, ' ')
    .replace(/[\p{L}'’-]+/gu, (w) => (QUESTION_WORDS.has(w.toLowerCase()) ? ' ' : w));
  return statementStems(words);
}

/** What each kind of clause asks, and the points (`namePoint`) that answer it. */
const CLAUSE_KINDS: readonly { asks: RegExp; points: RegExp }[] = [
  { asks: /^(?:and\s+)?when\b/i, points: /^when\b/i },
  { asks: /^(?:and\s+)?how\s+(?:far|much|many|large|big|long|high|low|often|severe)\b/i, points: /^(?:how|what)\b/i },
  { asks: /^(?:and\s+)?(?:why|what\s+(?:caused|causes|explains|drove|drives))\b/i, points: /^whether\b/i },
];

/**
 * The points that answer what the question asks, by kind: a "when" clause is answered by when something happened, a
 * "how far" clause by how far, a "why" by whether something caused it. "When did the decline begin?" was answered in
 * brief with how far the water level fell (lake-varen q02, decision 0166). Null (any point) when a clause is of no
 * known kind.
 */
function pointKinds(question: string): RegExp[] | null {
  const out: RegExp[] = [];
  for (const clause of questionParts(question).clauses) {
    const kind = CLAUSE_KINDS.find((k) => k.asks.test(clause.trim()));
    if (!kind) return null;
    out.push(kind.points);
  }
  return out.length > 0 ? out : null;
}

/**
 * The answer in brief, in our words, from the disputes the question asks about (a point sharing a word with the
 * question besides its names): for a disputed quantity, the dispute named and each side's figure with its basis where
 * the dispute's sentences give one ("the sources disagree on how far the water level fell (4.2 metres comparing annual
 * means and 6.1 metres comparing seasonal extremes), as set out under "Where the sources disagree""); for another
 * point, that the sources are divided on it. At most three points, in the disputes' order. Null when no dispute is about the question.
 */
export function answerWithBases(disputes: readonly BriefDispute[], question: string): string | null {
  const asked = questionStems(question);
  const kinds = pointKinds(question);
  const figured: string[] = [];
  const divided: string[] = [];
  for (const d of disputes) {
    if (figured.length + divided.length >= MAX_POINTS) break;
    const point = namePoint(d.sides, question);
    if (point === null || ![...statementStems(point)].some((t) => asked.has(t))) continue;
    if (kinds !== null && !kinds.some((k) => k.test(point))) continue;
    const figures: { figure: Quantity; side: string }[] = [];
    for (const side of d.sides) {
      const figure = leadFigure(side);
      if (figure && !figures.some((f) => f.figure.raw === figure.raw)) figures.push({ figure, side });
    }
    if (figures.length < 2) {
      divided.push(point);
      continue;
    }
    // A side's basis is read from the reason first (it compares the sides), then from the side itself. When the sides
    // cover different periods, each figure says its own ("3.9 metres between 2015 and 2023"): the period is part of what the
    // figure measures, and a reader would otherwise take the figures for one span (the demo's report, after 0127).
    const periods = figures.map(({ side }) => periodOf(side));
    const differ = new Set(periods.filter((p) => p !== null)).size > 1;
    const given = figures.map(({ figure, side }, i) => {
      const basis = basisOfFigure(figure, [...(d.reason ? [d.reason] : []), side]);
      // In the sides' own form: the guard reads a span "2015–2024" as a figure of 2024 no side gives.
      const period =
        differ && periods[i] ? ` ${periods[i].replace(/^(\d{4})–(\d{4})$/, 'between $1 and $2').replace(/^(\d{4})$/, 'in $1')}` : '';
      return `${figure.raw}${period}${basis ? ` ${basis}` : ''}`;
    });
    figured.push(`${point} (${joinAnd(given)})`);
  }
  if (figured.length === 0 && divided.length === 0) return null;
  const parts = [
    ...(figured.length > 0 ? [`the sources disagree on ${figured.join(' and on ')}, as set out under "Where the sources disagree"`] : []),
    ...(divided.length > 0 ? [`${figured.length > 0 ? 'they' : 'the sources'} are divided on ${joinAnd(divided)}`] : []),
  ];
  return `In brief, ${parts.join('; ')}.`;
}

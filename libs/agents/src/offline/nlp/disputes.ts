import { contradictionBetween, differentIdentifiers, prepareStatement, type PreparedStatement } from './contradiction';
import { keptAnalyses } from './kept-analyses';
import { statementStems } from './statement-terms';

/*
 * Statements of a run that say opposite things about the same subject (issue 25 item 5, decision 0087), found over
 * every pair of the run's claims when the body is drafted, whether or not the contradiction step paired them (it only
 * judges the pairs vector search proposes): conflicting figures or dates and opposite polarity (the contradiction
 * step's own rules, `contradictionBetween`), and an onset placed on both sides of the same event ("the decline began
 * in the first full year of large-scale canal operation" / "the decline started before large-scale irrigation").
 */

const ONSET = /\b(?:began|begun|begins?|beginning|start(?:ed|s|ing)?|commenc(?:ed|es|ing)?|set in)\b/i;
/** How the onset is placed against the event after it: before it, or in, with or after it. */
const BEFORE = /^(?:well |long |shortly |already |even |years |months )?(?:before|prior to|ahead of|earlier than|predat)/i;
const NOT_BEFORE = /^(?:only |just |shortly |soon |directly |immediately )?(?:in|with|after|during|at|when|once|following|upon|on|from)\b/i;
/** Words every onset shares, which say nothing of the event it is placed against. */
const ONSET_WORDS = new Set(['year', 'first', 'full', 'time', 'period', 'season', 'month', 'after', 'befor', 'onset']);

interface Onset {
  subject: Set<string>;
  before: boolean;
  event: Set<string>;
}

function onsetOf(text: string): Onset | null {
  const m = ONSET.exec(text);
  if (!m) return null;
  const subject = statementStems(text.slice(0, m.index));
  const rest = text.slice(m.index + m[0].length).trim();
  const before = BEFORE.test(rest);
  if (!before && !NOT_BEFORE.test(rest)) return null;
  const event = new Set([...statementStems(rest)].filter((t) => !ONSET_WORDS.has(t)));
  if (subject.size === 0 || event.size === 0) return null;
  return { subject, before, event };
}

const shares = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].some((t) => b.has(t));

/**
 * What a statement says began, as stems ("…; the decline began in 2015 and …" → declin), without the words every onset
 * shares ("year-on-year"); null when it dates or places no start. The subject is the clause the verb is in. Kept per
 * text: `contestedClaimIds` asks it of every claim against every dispute's sides (decision 0157).
 */
const onsetSubject = keptAnalyses((text: string): ReadonlySet<string> | null => {
  const m = ONSET.exec(text);
  if (!m) return null;
  const before = text.slice(0, m.index);
  const clause = before.slice(Math.max(before.lastIndexOf(';'), before.lastIndexOf(','), before.lastIndexOf(':')) + 1);
  const subject = new Set([...statementStems(clause)].filter((t) => !ONSET_WORDS.has(t)));
  return subject.size > 0 ? subject : null;
});

/**
 * Whether a statement dates or places the start of what an onset dispute is about: when the sources disagree on when
 * the decline started, "The annual mean level fell by 4.2 m between 2015 and 2024; the decline began in 2015 and is
 * mainly caused by climate." takes a side, though it restates neither (decision 0166).
 */
export function placesDisputedOnset(statement: string, sides: readonly string[]): boolean {
  const subjects = sides.map(onsetSubject);
  if (subjects.length < 2 || subjects.some((s) => s === null)) return false;
  const own = onsetSubject(statement);
  return own !== null && subjects.every((s) => shares(own, s!));
}

/** One analysed statement, for comparing it with every other. */
interface Analysed {
  prepared: PreparedStatement;
  onset: Onset | null;
}

function analyse(text: string): Analysed {
  return { prepared: prepareStatement(text), onset: onsetOf(text) };
}

function opposedAnalysed(a: Analysed, b: Analysed): boolean {
  if (contradictionBetween(a.prepared, b.prepared)) return true;
  const [x, y] = [a.onset, b.onset];
  if (differentIdentifiers(a.prepared.identifiers, b.prepared.identifiers)) return false;
  return x !== null && y !== null && x.before !== y.before && shares(x.subject, y.subject) && shares(x.event, y.event);
}

/** Whether two statements say opposite things about the same subject (a figure, a date, polarity, an onset). */
export function opposedStatements(a: string, b: string): boolean {
  return opposedAnalysed(analyse(a), analyse(b));
}

/**
 * Whether two opposed statements are a disagreement between sources (decision 0098): some source states one side and
 * not the other. Two statements of one document ("Otherwise, all tests are run." / "Whether or not to run only
 * tests.") are not, nor two that the same sources each state both of (0153: git's config and gc pages each give
 * "gc.reflogExpire … defaults to 90 days" and "gc.reflogExpireUnreachable … defaults to 30 days"; each source holds
 * both, so they describe two things, not a dispute). When either side's sources are unknown (empty), they count as
 * distinct.
 */
export function fromDistinctSources(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  return a.some((x) => !b.includes(x)) || b.some((y) => !a.includes(y));
}

/**
 * The pairs of statements (by index, the lower first) that say opposite things about the same subject; with
 * `sources` (each statement's source ids), only those whose sides come from distinct sources (`fromDistinctSources`).
 */
export function opposingPairs(statements: readonly string[], sources?: readonly (readonly string[])[]): [number, number][] {
  const analysed = statements.map(analyse);
  const pairs: [number, number][] = [];
  for (let i = 0; i < analysed.length; i++)
    for (let j = i + 1; j < analysed.length; j++) {
      if (sources && !fromDistinctSources(sources[i] ?? [], sources[j] ?? [])) continue;
      if (opposedAnalysed(analysed[i]!, analysed[j]!)) pairs.push([i, j]);
    }
  return pairs;
}

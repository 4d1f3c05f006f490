import { keptAnalyses } from './kept-analyses';
import { statementStems } from './statement-terms';

/** Share of a statement's content words a sentence must hold to state it (with every figure the statement gives). */
const STATES_SHARE = 0.75;
/**
 * The same, when the statement gives a measured figure (not only years) and the sentence gives it too: the figure says
 * most of what is claimed ("fell by 4.2 metres between 2015 and 2024, according to the annual report" states "the
 * annual-mean series shows that the level fell by 4.2 metres between 2015 and 2024").
 */
const STATES_SHARE_WITH_FIGURE = 0.6;
const YEAR = /^(?:1[89]|20)\d\d$/;

function figures(text: string): Set<string> {
  return new Set((text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '')));
}

/** A text's content stems and figures, kept per text (decision 0157): a statement is checked against many sentences. */
const analysed = keptAnalyses((text: string): { stems: ReadonlySet<string>; figures: ReadonlySet<string> } => ({
  stems: statementStems(text),
  figures: figures(text),
}));

/**
 * Whether a sentence states a statement: it holds most of the statement's content words and every figure it gives.
 * A longer sentence can state a claim it does not equal ("The level fell by 6.1 metres between 2015 and 2024, from a
 * spring maximum of …" states "The level fell by 6.1 metres between 2015 and 2024"); the same words with another
 * figure state another position. Used to keep the positions of a dispute out of the body (decision 0037).
 */
export function statesStatement(sentence: string, statement: string): boolean {
  const own = analysed(statement).stems;
  if (own.size === 0) return false;
  const inSentence = analysed(sentence).figures;
  const given = [...analysed(statement).figures];
  if (!given.every((n) => inSentence.has(n))) return false;
  const words = analysed(sentence).stems;
  const shared = [...own].filter((w) => words.has(w)).length;
  const measured = given.some((n) => !YEAR.test(n));
  return shared / own.size >= (measured ? STATES_SHARE_WITH_FIGURE : STATES_SHARE);
}

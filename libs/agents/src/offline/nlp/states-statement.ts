import { statementStems } from './statement-terms';

/** Share of a statement's content words a sentence must hold to state it (with every figure the statement gives). */
const STATES_SHARE = 0.75;

function figures(text: string): Set<string> {
  return new Set((text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '')));
}

/**
 * Whether a sentence states a statement: it holds most of the statement's content words and every figure it gives.
 * A longer sentence can state a claim it does not equal ("The level fell by 6.1 metres between 2015 and 2024, from a
 * spring maximum of …" states "The level fell by 6.1 metres between 2015 and 2024"); the same words with another
 * figure state another position. Used to keep the positions of a dispute out of the body (decision 0037).
 */
export function statesStatement(sentence: string, statement: string): boolean {
  const own = statementStems(statement);
  if (own.size === 0) return false;
  const words = statementStems(sentence);
  const shared = [...own].filter((w) => words.has(w)).length;
  if (shared / own.size < STATES_SHARE) return false;
  const inSentence = figures(sentence);
  return [...figures(statement)].every((n) => inSentence.has(n));
}

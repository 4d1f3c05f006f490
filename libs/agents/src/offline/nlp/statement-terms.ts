import { extractQuantities, type Quantity } from './quantities';
import { isNumericToken, stem, STOPWORDS, tokenize } from './tokens';

/*
 * What a statement is about, for comparing two statements: its content stems without figures (compared
 * separately, as quantities) and without negation cues (compared separately, as polarity).
 */

const NEGATION_WORDS = new Set(['not', 'no', 'never', 'neither', 'nor', 'without', 'cannot', 'none', 'nobody', 'nothing']);
const FAILED_TO = /\b(?:fail|fails|failed|failing)\s+to\b/gi;

/** The negation cues of a text, as written ("not", "didn't", "failed to"), in order. */
export function negationCues(text: string): string[] {
  const cues: string[] = [];
  for (const token of tokenize(text)) {
    if (NEGATION_WORDS.has(token) || token.endsWith("n't")) cues.push(token);
  }
  for (const m of text.matchAll(FAILED_TO)) cues.push(m[0].toLowerCase().replace(/\s+/g, ' '));
  return cues;
}

/** Blanks out the figures (and "failed to") so their words do not count as subject words. */
function withoutFigures(text: string, quantities: readonly Quantity[]): string {
  let out = text;
  for (const q of quantities) out = out.slice(0, q.start) + ' '.repeat(q.end - q.start) + out.slice(q.end);
  return out.replace(FAILED_TO, (m) => ' '.repeat(m.length));
}

/** Content stems of a statement, excluding figures, units, dates and negation cues. */
export function statementStems(text: string, quantities: readonly Quantity[] = extractQuantities(text)): Set<string> {
  const out = new Set<string>();
  for (const token of tokenize(withoutFigures(text, quantities))) {
    if (STOPWORDS.has(token) || NEGATION_WORDS.has(token) || token.endsWith("n't") || isNumericToken(token) || token.length < 2) continue;
    out.add(stem(token));
  }
  return out;
}

/** Removes citation markers such as "[E12]" or "[E1, E2]" that writers append to sentences. */
export function stripCitations(text: string): string {
  return text.replace(/\s*\[(?:[A-Za-z]{0,3}\d+)(?:\s*[,;]\s*[A-Za-z]{0,3}\d+)*\]/g, '');
}

/** Whitespace collapsed and trimmed. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

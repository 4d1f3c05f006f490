import { detectContradiction } from './contradiction';
import { comparable, extractQuantities, sameQuantity, type Quantity } from './quantities';
import { splitSentences } from './sentences';
import { normalizeWhitespace, statementStems, stripCitations } from './statement-terms';
import { contentStems } from './tokens';

/*
 * Lexical entailment for the offline verifier: a sentence is supported when its content words and every one
 * of its figures are found in the evidence, and no evidence sentence contradicts it.
 */

export type EntailmentVerdict = 'supported' | 'unsupported' | 'contradicted';

export interface EntailmentResult {
  verdict: EntailmentVerdict;
  /** Share of the hypothesis's content words and figures found in the premises, in [0, 1]. */
  score: number;
  note: string;
}

export const SUPPORT_THRESHOLD = 0.75;
/** Figures match after unit conversion within this relative difference (rounding in prose, 13.8 ft ≈ 4.2 m). */
const FIGURE_TOLERANCE = 0.02;

interface Coverage {
  score: number;
  missingWords: string[];
  missingFigures: Quantity[];
  words: number;
  figures: number;
}

function digits(raw: string): string | null {
  const m = /\d[\d,]*(?:\.\d+)?/.exec(raw);
  return m ? m[0].replace(/,/g, '') : null;
}

function figureFound(q: Quantity, premiseFigures: readonly Quantity[]): boolean {
  if (premiseFigures.some((p) => comparable(q, p) && sameQuantity(q, p, FIGURE_TOLERANCE))) return true;
  // A bare number in the hypothesis ("330") is found in "330 metres" too.
  if (q.kind === 'number' && q.unit === null) return premiseFigures.some((p) => digits(p.raw) === digits(q.raw));
  return false;
}

function coverage(words: ReadonlySet<string>, figures: readonly Quantity[], premises: readonly string[]): Coverage {
  const premiseStems = new Set(premises.flatMap((p) => contentStems(p)));
  const premiseFigures = premises.flatMap((p) => extractQuantities(p));
  const missingWords = [...words].filter((w) => !premiseStems.has(w));
  const missingFigures = figures.filter((q) => !figureFound(q, premiseFigures));
  const total = words.size + figures.length;
  const found = total - missingWords.length - missingFigures.length;
  return { score: total === 0 ? 0 : found / total, missingWords, missingFigures, words: words.size, figures: figures.length };
}

function isSupported(c: Coverage): boolean {
  return c.score >= SUPPORT_THRESHOLD && c.missingFigures.length === 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Whether the premises (evidence excerpts) support the hypothesis (a report sentence). */
export function entails(hypothesis: string, premises: readonly string[]): EntailmentResult {
  const claim = normalizeWhitespace(stripCitations(hypothesis));
  if (claim.length === 0) return { verdict: 'unsupported', score: 0, note: 'empty sentence' };
  const lowered = claim.toLowerCase();
  if (premises.some((p) => normalizeWhitespace(p).toLowerCase().includes(lowered))) {
    return { verdict: 'supported', score: 1, note: 'the sentence appears verbatim in the evidence' };
  }
  const figures = extractQuantities(claim);
  const words = statementStems(claim, figures);
  if (words.size === 0 && figures.length === 0) return { verdict: 'unsupported', score: 0, note: 'no content words to check' };

  const sentences = premises.flatMap((p) => splitSentences(p).map((s) => s.text));
  let contradiction: string | null = null;
  for (const sentence of sentences) {
    const conflict = detectContradiction(claim, sentence);
    if (conflict) {
      contradiction ??= `${conflict.kind}: ${conflict.note}`;
      continue;
    }
    const local = coverage(words, figures, [sentence]);
    if (isSupported(local)) {
      return { verdict: 'supported', score: round(local.score), note: `${describe(local)} in one evidence sentence` };
    }
  }
  const overall = coverage(words, figures, premises);
  if (contradiction !== null) return { verdict: 'contradicted', score: round(overall.score), note: contradiction };
  if (isSupported(overall)) return { verdict: 'supported', score: round(overall.score), note: describe(overall) };
  const missing = [
    overall.missingWords.length > 0 ? `missing words: ${overall.missingWords.join(', ')}` : null,
    overall.missingFigures.length > 0 ? `figures not in the evidence: ${overall.missingFigures.map((q) => q.raw).join(', ')}` : null,
  ].filter((x): x is string => x !== null);
  return { verdict: 'unsupported', score: round(overall.score), note: `${describe(overall)}; ${missing.join('; ')}` };
}

function describe(c: Coverage): string {
  const words = `${c.words - c.missingWords.length} of ${c.words} content words`;
  return c.figures === 0 ? `${words} found` : `${words} and ${c.figures - c.missingFigures.length} of ${c.figures} figures found`;
}

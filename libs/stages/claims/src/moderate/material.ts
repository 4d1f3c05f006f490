import type { QuestionMaterial } from '@dossier/agents';

/*
 * What a question's sources hold that a template follow-up needs (issue 25 item 3): "What has changed recently about
 * X?" wants dated text from two sources, "What independent sources confirm the figures for X?" figures from two, "What
 * figures are reported for X?" figures from one, "What are the basic facts about X?" any source at all. Read from the
 * search results' snippets and the evidence excerpts of the question and the questions it refines — text the run
 * already holds, so the signal costs no search.
 */

/** A year, or a version note ("Changed in version 3.2", "New in version 3.9", "Deprecated since version 2.4"). */
const DATED =
  /\b(?:1[89]\d\d|20\d\d)\b|\b(?:changed|new|added|deprecated|removed)\s+(?:in|since)\s+(?:version|v)\s*\d|\bsince\s+(?:version|v)\s*\d+\.\d/i;

// A quantity: a number with a unit, a percentage, a magnitude, a currency, or a count in thousands (12,000) (not a bare number: list positions, section
// numbers, years and version numbers are no figures).
const UNIT = [
  '%',
  'per\\s?cent',
  'percent',
  'million',
  'billion',
  'thousand',
  'bn',
  'km²?',
  'm[²³23]?',
  'cm',
  'mm',
  'metres?',
  'meters?',
  'kilomet(?:re|er)s?',
  'miles?',
  'feet',
  'ft',
  'ha',
  'hectares?',
  'acres?',
  'kg',
  'g',
  't',
  'tonnes?',
  'tons?',
  'l',
  'litres?',
  'liters?',
  'gigalitres?',
  'GL',
  'k?Wh?',
  'MWh?',
  'GWh?',
  'mAh',
  'Ah',
  'V',
  '°\\s?[CF]',
  'degrees?',
  'ms',
  'seconds?',
  'minutes?',
  'hours?',
  'days?',
  'weeks?',
  'months?',
  'years?',
  'bytes?',
  '[KMGT]i?B',
  'people',
  'patients',
  'units',
  'cases',
];
const FIGURE = new RegExp(
  `(?:[$€£¥]\\s?\\d[\\d,.]*)|(?:\\b\\d{1,3}(?:,\\d{3})+\\b)|(?:\\b\\d[\\d,]*(?:\\.\\d+)?\\s?(?:${UNIT.join('|')})(?![\\p{L}\\d]))`,
  'iu',
);

export const isDated = (text: string): boolean => DATED.test(text);
export const hasFigure = (text: string): boolean => FIGURE.test(text);

export interface FoundText {
  questionId: string;
  /** The source it comes from (its canonical URL, or its snapshot). */
  source: string;
  text: string;
}

/**
 * Per question, the material its own finds and those of the questions it refines hold (a follow-up's topic is its
 * parent's): distinct sources, dated ones, figure-bearing ones.
 */
export function questionMaterial(
  questions: readonly { id: string; parentId: string | null }[],
  found: readonly FoundText[],
): Map<string, QuestionMaterial> {
  const parent = new Map(questions.map((q) => [q.id, q.parentId]));
  const byQuestion = new Map<string, FoundText[]>();
  for (const f of found) byQuestion.set(f.questionId, [...(byQuestion.get(f.questionId) ?? []), f]);
  const out = new Map<string, QuestionMaterial>();
  for (const q of questions) {
    const all = new Set<string>();
    const dated = new Set<string>();
    const figures = new Set<string>();
    const seen = new Set<string>();
    for (let id: string | null | undefined = q.id; id && !seen.has(id); id = parent.get(id)) {
      seen.add(id);
      for (const f of byQuestion.get(id) ?? []) {
        all.add(f.source);
        if (isDated(f.text)) dated.add(f.source);
        if (hasFigure(f.text)) figures.add(f.source);
      }
    }
    out.set(q.id, { sources: all.size, dated: dated.size, figures: figures.size });
  }
  return out;
}

import { contentWords, stem, STOPWORDS } from './tokens';

/*
 * The terms a text is found by when ranking it against a question (decision 0149): its content stems, and forms a
 * reader takes for the same word that the stemmer does not join.
 * - A page's word with the prefix "un" is also the word without it: "Only unpickle data you trust" is about pickle data,
 *   "unsafe" about safety (matchStems, the page's side). For relevance only: whether a sentence asserts or denies is
 *   decided elsewhere (contradiction, entailment), on contentStems, which keep the prefix.
 * - A question's hyphenated compound is also its joined word: "sub-commands" meets a page's "subcommands" (argparse
 *   writes both) (queryStems).
 * - A question's name in camel case is also its words: "asyncio.TaskGroup" meets "the remaining tasks in the group", as
 *   the outline's relevance already reads names (decision 0131) (queryStems).
 * Each form on one side only, so a word written the same way on both sides is not counted twice: with the compound
 * joined on both, a page's "re-include" matched a question's "re-include" three times ("re", "include", "reinclude") and
 * outranked git-manual q06's other answers; with camel case split on both, a page's every "ValueError" read as "error"
 * and displaced subprocess.run's own sentences for a question that says "raise an error".
 */

/** The remainder after "un" must be at least this long: "unit", "union", "under" are no negations of "it", "ion", "der". */
const UN_REMAINDER_MIN = 4;
const COMPOUND = /(\p{L}+)-(\p{L}+)/gu;
/** Two or more capitalised parts, with or without a lower-case head: "TaskGroup", "reflogExpire", "BaseExceptionGroup". */
const CAMEL = /\b[a-z]*(?:[A-Z][a-z]+){2,}\b|\b[a-z]+[A-Z][a-z]+\b/g;

/** The stems a page's text is also found by: its "un" words without the prefix. */
export function variantStems(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (w.startsWith('un') && w.length - 2 >= UN_REMAINDER_MIN && /^[a-z]+$/.test(w)) {
      const rest = w.slice(2);
      if (!STOPWORDS.has(rest)) out.push(stem(rest));
    }
  }
  return out;
}

/** A page's terms: contentStems (in order, with repeats) followed by variantStems. */
export function matchStems(text: string): string[] {
  const words = contentWords(text);
  const stems = words.map(stem);
  const extra = variantStems(words);
  return extra.length === 0 ? stems : [...stems, ...extra];
}

/** A question's terms: contentStems, its hyphenated compounds joined and its camel-case names' words. */
export function queryStems(text: string): string[] {
  return [...contentWords(text).map(stem), ...compoundStems(text), ...camelStems(text)];
}

/** Hyphenated compounds joined, as stems: "sub-commands" → subcommand; none with a function word ("built-in"). */
export function compoundStems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(COMPOUND)) {
    const [, a, b] = m as unknown as [string, string, string];
    if (a.length >= 2 && b.length >= 2 && !STOPWORDS.has(a) && !STOPWORDS.has(b)) out.push(stem(a + b));
  }
  return out;
}

/** The words of the camel-case names in a text, as stems: "TaskGroup" → task, group. */
export function camelStems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(CAMEL)) {
    for (const part of m[0].split(/(?=[A-Z])/)) {
      const w = part.toLowerCase();
      if (w.length >= 2 && !STOPWORDS.has(w)) out.push(stem(w));
    }
  }
  return out;
}

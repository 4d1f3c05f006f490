import { ENGLISH_STOPWORDS } from './stopwords';

// A token starts with a letter or digit and may carry combining marks (Devanagari vowel signs, decomposed
// accents), so scripts that need marks are not cut mid-word.
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** Lowercased word tokens (NFKC first, so ligatures and full-width forms match their plain spelling). */
export function wordTokens(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(TOKEN) ?? [];
}

/** Word tokens without stopwords, in order: bigrams are formed over this sequence. */
export function contentTokens(text: string, stopwords: ReadonlySet<string> = ENGLISH_STOPWORDS): string[] {
  return wordTokens(text).filter((t) => !stopwords.has(t));
}

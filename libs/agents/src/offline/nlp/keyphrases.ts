import { isNumericToken, STOPWORDS, tokenize } from './tokens';

/*
 * RAKE (Rose et al., 2010): candidate phrases are the runs of content words between stopwords and
 * punctuation; a word scores degree/frequency, a phrase the sum of its words.
 */

export interface Keyphrase {
  phrase: string;
  score: number;
}

export interface KeyphraseOptions {
  /** More words to treat as delimiters (e.g. the filler words of generated questions). */
  extraStopwords?: ReadonlySet<string>;
  /** Longer runs are dropped: they are usually lists, not phrases. */
  maxWords?: number;
}

// Punctuation that ends a phrase; hyphens and apostrophes do not (they are inside words).
const PHRASE_BREAK = /[^\p{L}\p{M}\p{N}\s'’-]+/u;

function candidates(text: string, extra: ReadonlySet<string> | undefined): string[][] {
  const phrases: string[][] = [];
  for (const fragment of text.split(PHRASE_BREAK)) {
    let run: string[] = [];
    for (const token of tokenize(fragment)) {
      const delimiter = STOPWORDS.has(token) || extra?.has(token) === true || isNumericToken(token) || token.length < 2;
      if (delimiter) {
        if (run.length > 0) phrases.push(run);
        run = [];
      } else run.push(token);
    }
    if (run.length > 0) phrases.push(run);
  }
  return phrases;
}

/** The best `limit` key phrases, highest score first; ties keep the phrase that appears first. */
export function extractKeyphrases(text: string, limit: number, options: KeyphraseOptions = {}): Keyphrase[] {
  const maxWords = options.maxWords ?? 5;
  // A run longer than maxWords is split into even chunks rather than dropped: a question made of one long
  // run of content words ("vacuum prevent transaction id wraparound failures") must still yield phrases.
  const phrases = candidates(text, options.extraStopwords).flatMap((p) => {
    if (p.length <= maxWords) return [p];
    const parts = Math.ceil(p.length / maxWords);
    const size = Math.ceil(p.length / parts);
    return Array.from({ length: parts }, (_, i) => p.slice(i * size, (i + 1) * size)).filter((c) => c.length > 0);
  });
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const phrase of phrases) {
    for (const word of phrase) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
      degree.set(word, (degree.get(word) ?? 0) + phrase.length);
    }
  }
  const seen = new Map<string, { score: number; order: number; count: number }>();
  phrases.forEach((words, order) => {
    const phrase = words.join(' ');
    const entry = seen.get(phrase);
    if (entry) {
      entry.count++;
      return;
    }
    const score = words.reduce((sum, w) => sum + (degree.get(w) ?? 0) / (frequency.get(w) ?? 1), 0);
    seen.set(phrase, { score, order, count: 1 });
  });
  return [...seen.entries()]
    .sort(([, a], [, b]) => b.score - a.score || b.count - a.count || a.order - b.order)
    .slice(0, Math.max(0, limit))
    .map(([phrase, { score }]) => ({ phrase, score: Math.round(score * 1000) / 1000 }));
}

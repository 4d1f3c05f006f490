/*
 * Tokens, stopwords and a Porter stemmer: the vocabulary every other offline NLP function shares, so
 * that "measured", "measures" and "measurement" meet as one term everywhere.
 */

// Numbers keep their inner separators ("1,200.75", "3.5") so a figure stays one token; words keep inner
// apostrophes so "didn't" stays recognisable as a negation.
const TOKEN = /\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}]+)*/gu;

/**
 * Lower-case unicode words and numbers, in order. Hyphens, slashes and other punctuation separate tokens;
 * inner apostrophes are kept ("didn't") except a possessive "'s", which is removed.
 */
export function tokenize(text: string): string[] {
  const normalized = text.replace(/[\u2018\u2019\u02bc]/g, "'").toLowerCase();
  // The possessive "'s" is dropped so "the bridge's span" and "the bridge span" share a term.
  return (normalized.match(TOKEN) ?? []).map((t) => (t.endsWith("'s") && t.length > 2 ? t.slice(0, -2) : t));
}

export function isNumericToken(token: string): boolean {
  return /^\p{N}+(?:[.,]\p{N}+)*$/u.test(token);
}

/**
 * The words that ask and the degree a question asks about ("how far", "how much", "how large"): a point sharing only
 * these with a question ("how far the number of fishing licences fell", asked "How far did the water level fall?") is
 * not about it.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  'what how why when where which who whom whose large much far big many great'.split(' '),
);

/** English function words (and question words, which carry no topic). Negation words are in here too. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also although am among an and any anyone anything are
  aren't around as at be became because become been before being below between both but by can cannot
  can't could couldn't did didn't do does doesn't doing don't done down during each either else enough
  etc even ever every few for from further get gets got had hadn't has hasn't have haven't having he
  he'd he'll her here hers herself he's him himself his how however i i'd if i'll i'm in into is isn't
  it its it's itself just least less let's like made make many may me might more most much must
  mustn't my myself neither never no nobody nor not now of off often on once one only onto or other
  others otherwise our ours ourselves out over own per perhaps quite rather really said same say says
  shall shan't she she'd she'll she's should shouldn't since so some someone something still such than
  that that's the their theirs them themselves then there therefore there's these they they'd they'll
  they're they've this those though through thus to too toward towards under until up upon us very via
  was wasn't we we'd well we'll were we're weren't we've what whatever what's when whenever where
  whereas wherever whether which while who whoever whom whose who's why will with within without won't
  would wouldn't yet you you'd you'll your you're yours yourself yourselves you've`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** Tokens that are neither stopwords nor single letters; numbers are kept. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t) && (t.length > 1 || isNumericToken(t)));
}

/** The stems of contentWords, in order (with repeats). */
export function contentStems(text: string): string[] {
  return contentWords(text).map(stem);
}

// ---------------------------------------------------------------- Porter stemmer (1980), as published

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** m: the number of VC sequences in w[0..end). */
function measure(w: string, end: number = w.length): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string, end: number = w.length): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  if (!isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
  const c = w[n - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replaces the first matching suffix when the remaining stem has measure > minMeasure. */
function replaceSuffix(w: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  // Porter applies only the longest matching suffix of a step, whether or not its condition holds.
  for (const [suffix, replacement] of [...rules].sort((a, b) => b[0].length - a[0].length)) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, w.length - suffix.length);
      return measure(base) > minMeasure ? base + replacement : w;
    }
  }
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  }
  for (const suffix of ['ed', 'ing']) {
    if (w.endsWith(suffix) && hasVowel(w, w.length - suffix.length)) {
      w = w.slice(0, -suffix.length);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
      if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) return w.slice(0, -1);
      if (measure(w) === 1 && endsCvc(w)) return w + 'e';
      return w;
    }
  }
  return w;
}

function step4(w: string): string {
  // Longest suffix first, as Porter's table is ordered by the penultimate letter.
  const sorted = [...STEP4].sort((a, b) => b.length - a.length);
  for (const suffix of sorted) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, w.length - suffix.length);
    if (suffix === 'ion' && !/[st]$/.test(base)) return w;
    return measure(base) > 1 ? base : w;
  }
  return w;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) w = base;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

const stemCache = new Map<string, string>();

/** Porter stem of one lower-case word; numbers and words of 1–2 letters are returned unchanged. */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 2 || !/^[a-z]+$/.test(lower)) return lower;
  const cached = stemCache.get(lower);
  if (cached !== undefined) return cached;
  let w = step1ab(lower);
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i';
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  w = step5(w);
  // The cache only grows with the vocabulary of processed text; bound it so a long-lived worker stays flat.
  if (stemCache.size > 50_000) stemCache.clear();
  stemCache.set(lower, w);
  return w;
}

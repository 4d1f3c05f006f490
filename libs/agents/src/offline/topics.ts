import { extractKeyphrases } from './nlp/keyphrases';
import { stem, tokenize } from './nlp/tokens';

/*
 * Topic phrases for the offline roles. Generated questions share template words ("What figures quantify…"),
 * which must not become topics or search terms.
 */
export const QUESTION_FILLER: ReadonlySet<string> = new Set(
  `know measured terms known evidence evidences figure figures quantify quantifies key main development developments happen
  happened happens matter matters dispute disputes disputed claim claims ground grounds reported report reports
  say says said official sources source perspective according contradict contradicts qualify qualifies fact facts
  question questions detail details aspect aspects regarding relation related specific`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

// Common verbs split phrases too, so "how was the bridge built" yields the topic "bridge", not "bridge built".
const COMMON_VERBS = words(
  `build builds built made make makes making use used uses using cause caused causes affect affects
  affected change changed changes became become becomes began begin begins started start starts get gets got take
  takes took taken give gives gave given go goes went come comes came mean means compare compared seem seems work
  worked works look looks find found finds show shows showed shown happen tell tells told accept accepts accepted
  advise advises advised keep keeps kept throw throws threw recovered suspended introduced`,
);
const TOPIC_STOPWORDS: ReadonlySet<string> = new Set([...QUESTION_FILLER, ...COMMON_VERBS]);
// Words of reviewer feedback that say what to do rather than what about.
const FEEDBACK_STOPWORDS: ReadonlySet<string> = new Set([
  ...TOPIC_STOPWORDS,
  ...words(`add adds added include includes including focus focusing more less please want wants need needs view views
  remove drop cover covers covering section sections perspective perspectives question questions report angle angles
  consider expand shorten missing lacks lack deeper better instead`),
]);

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0);
}

/** Top key phrases of a text without question filler words or common verbs. */
export function topicPhrases(text: string, limit: number): string[] {
  return extractKeyphrases(text, limit, { extraStopwords: TOPIC_STOPWORDS }).map((k) => k.phrase);
}

/** Top key phrases of reviewer feedback: what it asks about, without the asking. */
export function feedbackPhrases(text: string, limit: number): string[] {
  return extractKeyphrases(text, limit, { extraStopwords: FEEDBACK_STOPWORDS }).map((k) => k.phrase);
}

/**
 * The items a perspective's focus names before what it is about ("mechanisms, measurements and primary studies
 * concerning lake varen water level" → mechanisms, measurements, primary studies): the analyst's angles, in its own
 * words. Key phrases picked out of the whole focus mixed the two ("physical mechanisms concerning lake").
 */
export function focusItems(focus: string): string[] {
  return focus
    .split(/\s+concerning\b|;|\.\s/)[0]
    .split(/,\s*|\s+and\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function stemSet(text: string): Set<string> {
  return new Set(tokenize(text).map(stem));
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'nor', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);

/** Title Case for headings: small words stay lower case except at the start; all-caps words are kept. */
export function titleCase(phrase: string): string {
  return phrase
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w, i) => {
      if (i > 0 && SMALL_WORDS.has(w.toLowerCase())) return w.toLowerCase();
      if (w.length > 1 && w === w.toUpperCase()) return w;
      return w.charAt(0).toUpperCase() + w.slice(1);
    })
    .join(' ');
}

/** Cuts text at a word boundary to at most `max` characters. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.-]*(?:['’]s)?/gu;
const DETERMINER = /^(?:the|a|an|its|their|this|these)$/i;
const bare = (w: string) => w.toLowerCase().replace(/['’]s$/, '');

/**
 * A key phrase as its text writes it: "lake varen water level" in "How large was the decline of Lake Varen's water
 * level?" is "Lake Varen's water level" — the words in a row as they stand, capitals and possessives kept, with the
 * determiner before them ("the last commit"); word by word in the text's casing when they are not in a row.
 */
export function asWritten(phrase: string, text: string): string {
  const words = phrase.split(/\s+/).filter((w) => w.length > 0);
  const tokens = [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, k) => bare(tokens[i + k]!.word) === w.toLowerCase())) {
      // With its determiner ("the last commit"), in lower case.
      const before = tokens[i - 1];
      const from = before && DETERMINER.test(before.word) ? before.start : tokens[i]!.start;
      const written = text.slice(from, tokens[i + words.length - 1]!.end);
      return from === tokens[i]!.start ? written : written.charAt(0).toLowerCase() + written.slice(1);
    }
  }
  return words.map((w) => tokens.find((t) => bare(t.word) === w.toLowerCase())?.word.replace(/['’]s$/, '') ?? w).join(' ');
}

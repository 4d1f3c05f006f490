import { createHash } from 'node:crypto';

/*
 * A small built-in lexicon for the realistic model: synonym groups (which words mean the same), unit spellings, and
 * topics (which words talk about the same thing, antonyms included, as real embedding models place them). The
 * paraphraser rewrites with it, the judge reads through it, and the embeddings are built from it, so similarity and
 * contradiction search are tested against meaning rather than against noise. Self-contained on purpose: the double
 * must not share the NLP of the code it tests.
 */

/** Words that mean the same here; the first is the canonical one. Multi-word entries are matched as phrases. */
const SYNONYMS: readonly string[][] = [
  ['fell', 'dropped', 'declined', 'decreased', 'sank', 'went down'],
  ['fall', 'drop', 'decline', 'decrease'],
  ['rose', 'increased', 'climbed', 'grew', 'went up'],
  ['rise', 'increase', 'growth'],
  ['cause', 'drive', 'produce'],
  ['caused', 'drove', 'produced', 'brought about'],
  ['average', 'mean'],
  ['water level', 'level'],
  ['lake', 'reservoir'],
  ['withdrawals', 'abstraction', 'extraction'],
  ['rainfall', 'precipitation'],
  ['began', 'started', 'commenced'],
  ['opened', 'was opened', 'came into service'],
  ['about', 'approximately', 'roughly', 'around', 'approx.'],
  ['study', 'research', 'analysis'],
  ['found', 'showed', 'concluded'],
  ['report', 'assessment'],
  ['annual', 'yearly'],
  ['said', 'stated'],
  ['large', 'big', 'substantial'],
  ['main', 'principal', 'chief'],
  ['estimates', 'reckons'],
];

/** Unit spellings a paraphrase may swap; the first is the canonical form. */
const UNITS: readonly string[][] = [
  ['cubic metres', 'm³', 'cubic meters'],
  ['square kilometres', 'km²', 'square kilometers'],
  ['metres', 'm', 'meters'],
  ['kilometres', 'km', 'kilometers'],
  ['per cent', '%', 'percent'],
  ['millimetres', 'mm'],
];

/** Topics: words that are about the same thing, whatever their polarity (embeddings put antonyms close). */
const TOPICS: readonly string[][] = [
  ['level', 'water', 'lake', 'reservoir', 'shoreline', 'depth', 'drawdown', 'gauge', 'surface'],
  [
    'fell',
    'fall',
    'rose',
    'rise',
    'shrank',
    'shrink',
    'shrinking',
    'expanded',
    'expand',
    'lower',
    'higher',
    'deficit',
    'loss',
    'gain',
    'change',
    'declined',
    'decline',
  ],
  ['rainfall', 'rain', 'drought', 'dry', 'wet', 'evaporation', 'climate', 'weather', 'precipitation', 'heat', 'temperature'],
  ['irrigation', 'farm', 'farms', 'farmers', 'growers', 'canal', 'abstraction', 'withdrawals', 'crops', 'holdings', 'agriculture'],
  ['dam', 'hydro', 'release', 'releases', 'schedule', 'upstream', 'regulation', 'inflow', 'river'],
  ['fish', 'fishing', 'anglers', 'stocks', 'restocking', 'trout', 'licences'],
  ['cause', 'caused', 'driven', 'drives', 'because', 'blame', 'blames', 'responsible', 'attributes', 'explained'],
  ['steadily', 'sharply', 'dramatically', 'slowly', 'considerably', 'markedly'],
  ['decade', 'years', 'year', 'period', 'since'],
];

const TOPIC_OF = new Map<string, number>();
TOPICS.forEach((words, i) => words.forEach((w) => TOPIC_OF.set(w, i)));

const CANONICAL = new Map<string, string>();
for (const group of [...SYNONYMS, ...UNITS]) for (const w of group) CANONICAL.set(w.toLowerCase(), group[0]!.toLowerCase());

const STOP = new Set(
  'a an the of to in on at by for from with and or but is are was were be been being it its this that these those as has have had which who whom than then there their over into during per'.split(
    ' ',
  ),
);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lower-case words and numbers, multi-word synonyms and unit spellings joined to their canonical form. */
export function canonicalTokens(text: string): string[] {
  let t = ` ${text.toLowerCase().replace(/[\u2018\u2019]/g, "'")} `;
  const phrases = [...CANONICAL.keys()].filter((k) => /[\s³²%.]/.test(k)).sort((a, b) => b.length - a.length);
  for (const p of phrases) {
    const canonical = CANONICAL.get(p)!.replace(/\s+/g, '_');
    t = t.replace(new RegExp(`(?<=[\\s\\d(])${escape(p)}(?=[\\s.,;:)])`, 'g'), ` ${canonical} `);
  }
  const words = t.match(/\d+(?:[.,]\d+)*|[a-z_³²%]+(?:'[a-z]+)?/g) ?? [];
  return words.map((w) => CANONICAL.get(w.replace(/_/g, ' '))?.replace(/\s+/g, '_') ?? w).filter((w) => !STOP.has(w));
}

function hashIndex(text: string, dim: number, salt: string): { index: number; sign: number } {
  const h = createHash('sha256').update(`${salt}:${text}`).digest();
  return { index: h.readUInt32BE(0) % dim, sign: h[4]! & 1 ? 1 : -1 };
}

/**
 * An embedding that carries meaning: each word adds to its synonym group's direction and, more strongly, to its
 * topic's direction; other words add a small hashed component. Texts about the same thing are close whatever words
 * they use; texts about different things are far apart.
 */
export function conceptEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const token of canonicalTokens(text)) {
    const word = token.replace(/_/g, ' ');
    const topic = TOPIC_OF.get(word) ?? TOPIC_OF.get(word.split(' ').at(-1)!);
    if (topic !== undefined) {
      const { index, sign } = hashIndex(`topic-${topic}`, dim, 'topic');
      v[index]! += 3 * sign;
    }
    const { index, sign } = hashIndex(word, dim, 'word');
    v[index]! += (topic !== undefined ? 0.6 : 1) * sign;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** A deterministic generator of numbers in [0, 1), from a string seed. */
export function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32BE(0) || 1;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A faithful paraphrase: synonyms swapped, unit spellings changed, contractions formed; figures, dates, names and
 * polarity unchanged. Returns the sentence itself when nothing in it can be reworded.
 */
export function paraphrase(sentence: string, random: () => number): string {
  let out = sentence;
  // Whole words only; "m" in "m³" is not the unit metres.
  const word = (w: string) => new RegExp(`(?<![\\w])${escape(w)}(?![\\w³²])`);
  const swap = (group: readonly string[]): boolean => {
    // An earlier swap may have taken this group's word already.
    const present = group.find((w) => word(w).test(out));
    const others = group.filter((w) => w !== present && !/^[A-Z]/.test(w));
    if (present === undefined || others.length === 0) return false;
    out = out.replace(word(present), others[Math.floor(random() * others.length)]!);
    return true;
  };
  for (const group of SYNONYMS) swap(group);
  // One unit respelled per sentence, most specific first: "cubic metres" must not become "cubic m".
  for (const group of UNITS) if (swap(group)) break;
  out = out.replace(/\b(did|does|was|were|is|are|has|have) not\b/, (_, aux: string) => `${aux}n't`);
  out = out.replace(/(\d) %/g, '$1%');
  return out;
}

import { Bm25Index } from './nlp/bm25';
import { headingTerms, intentTerms } from './nlp/intent-terms';
import { matchStems, queryStems } from './nlp/match-terms';
import { splitUnits, type Unit } from './nlp/sentences';
import { contentStems, contentWords, stem, tokenize, STOPWORDS } from './nlp/tokens';

/*
 * Passage-level relevance of a source's sentences to a question, for the offline evidence curator. A sentence of a
 * manual often does not repeat what it is about: "Does not touch the index file or the working tree at all" sits
 * under the term line "--soft", "Like pop, but do not remove the state from the stash list" under "apply". So a
 * sentence is scored with its passage:
 * - BM25 of the sentence itself;
 * - BM25 of its context (the label it stands under — the nearest heading, table row or short term line above it in
 *   the same passage — and the sentence before it in its paragraph), at CONTEXT_WEIGHT;
 * - for the first sentence under a label (its definition: "Replace the tip of the current branch …" under "--amend"),
 *   DEFINITION_WEIGHT times the idf of each question term the label names (docs/decisions/0039);
 * - a proximity bonus for each phrase of the question (two content words next to each other in the question, "root
 *   logger", "untracked files") that the sentence holds within PROXIMITY_WINDOW words, weighted by the words' rarity;
 * - expansion from the source's own vocabulary: the words the question's best sentences share and the question does
 *   not use, searched again at EXPANSION_WEIGHT (pseudo-relevance feedback);
 * - for a question word that states an intent ("safe", "efficiently"), the words an answer to it is written in
 *   ("secure", "untrusted", "performance"), searched at INTENT_WEIGHT; a sentence holding one counts as holding the
 *   question's word (decision 0149).
 * A page's terms are matchStems (stems; an "un" word also without its prefix), a question's queryStems (stems; a
 * hyphenated compound also joined, a camel-case name also as its words).
 */

/** Weight of the passage context's BM25 against the sentence's own. */
const CONTEXT_WEIGHT = 0.5;
/** Weight of a question phrase found in the sentence, times the mean idf of its two words. */
const PROXIMITY_WEIGHT = 0.6;
/** Two words of a phrase count as together when at most this many content words apart. */
const PROXIMITY_WINDOW = 2;
/** A label is at most this many words: a term line, a signature, a heading. */
const LABEL_MAX_WORDS = 16;
/** How far back (in units) a sentence looks for its label. */
const LABEL_LOOKBACK = 12;
/** Expansion from the source's own vocabulary: words shared by the best sentences for a question (pseudo-relevance feedback). */
const EXPANSION_SENTENCES = 5;
const EXPANSION_TERMS = 4;
const EXPANSION_WEIGHT = 0.3;
/** Weight of the words that answer an intent of the question (nlp/intent-terms). */
const INTENT_WEIGHT = 0.6;
/**
 * A heading that answers the question's intent ("3. Results" for "What did the tests find?"). In a test report every
 * sentence names the tests, so the question's other words rank its scope and title first; the results scored 1.1
 * against the scope's 12.1 at the context's weight and fell under the curator's floor (decision 0169).
 */
const HEADING_INTENT_WEIGHT = 2;
const SENTENCE_END = /[.!?;…]["'”’»)\]]*$/;

export interface PassageHit {
  /** Index into the units given to the scorer. */
  index: number;
  score: number;
  /** Distinct query terms in the sentence or its context. */
  matched: number;
}

/** A question term in the label a sentence opens (its definition: "--amend" above "Replace the tip of …") counts this much of its idf. */
const DEFINITION_WEIGHT = 0.5;
/** As DEFINITION_WEIGHT, for an option the question names verbatim, dashes and all. */
const NAMED_OPTION_WEIGHT = 3;

/** A blank line between two offsets ends a paragraph. */
function paragraphBreak(text: string, from: number, to: number): boolean {
  return /\n[ \t]*\n/.test(text.slice(from, to));
}

/**
 * A call signature on its own (`run(args, *, stdin=None, input=None, …, **other_popen_kwargs)`), however many words:
 * the label of the description under it, as a term line is (decision 0141). Python's keyword-only signatures run to
 * thirty words, past LABEL_MAX_WORDS, so the description of `run` stood under the section's heading instead.
 */
const SIGNATURE = /^[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)(?:\s*->\s*[^\n]+)?$/;
const SIGNATURE_MAX_CHARS = 600;

export function isSignature(u: Unit): boolean {
  const text = u.text.trim();
  return u.kind !== 'heading' && u.kind !== 'table-row' && text.length <= SIGNATURE_MAX_CHARS && SIGNATURE.test(text);
}

/**
 * A manual's option term line ("--amend", "-u, --include-untracked", "--fixup=[(amend|reword):]<commit>"): the paragraph
 * under it describes that option, as a signature's describes its function (decision 0151).
 */
const OPTION_LABEL = /^-{1,2}[A-Za-z0-9][\w-]*(?:[=[<\s,][^\n]*)?$/;

/** How many sentences under an option term line describe it at most. */
const OPTION_DESCRIPTION_UNITS = 8;

export function isOptionLabel(u: Unit): boolean {
  return u.kind !== 'heading' && u.kind !== 'table-row' && OPTION_LABEL.test(u.text.trim()) && isLabel(u);
}

/** An option's name in a term line or a question, dashes and all ("--amend", "-u", "--no-edit"). */
const OPTION_NAME = /(?<![\w-])-{1,2}[A-Za-z0-9][\w-]*/g;

/** The options a text names ("-u, --include-untracked" → -u, --include-untracked; "git commit --amend" → --amend). */
function optionNames(text: string): string[] {
  return [...text.matchAll(OPTION_NAME)].map((m) => m[0]);
}

export function isLabel(u: Unit): boolean {
  if (u.kind === 'heading' || u.kind === 'table-row' || isSignature(u)) return true;
  return tokenize(u.text).length <= LABEL_MAX_WORDS && !SENTENCE_END.test(u.text.trim());
}

/**
 * A question a page asks and answers after it, as an FAQ does ("How do I know if my battery pack is affected?" before
 * "Take the battery pack off the bike and turn it over."): the answer's label, as a heading would be (decision 0169).
 */
export function isAskedQuestion(u: Unit): boolean {
  return u.kind === 'sentence' && endsAsQuestion(u.text) && tokenize(u.text).length <= LABEL_MAX_WORDS;
}

/** A text that ends with a question mark (closing quotes and brackets after it allowed). */
export function endsAsQuestion(text: string): boolean {
  return /\?["'”’»)\]]*$/.test(text.trim());
}

/** The passage context of each unit: its label (a heading, or the question an FAQ answers) and, within its paragraph, the sentence before it. */
export function passageContexts(text: string, units: readonly Unit[]): string[] {
  return units.map((u, i) => {
    const parts: string[] = [];
    for (let j = i - 1; j >= 0 && j >= i - LABEL_LOOKBACK; j--) {
      if (isLabel(units[j]!) || isAskedQuestion(units[j]!)) {
        parts.push(units[j]!.text);
        break;
      }
    }
    const previous = units[i - 1];
    if (previous && previous.kind === 'sentence' && !isLabel(previous) && !paragraphBreak(text, previous.end, u.start))
      parts.push(previous.text);
    return parts.join('\n');
  });
}

/**
 * Where excerpts of a text (each given by its offsets) stand in it: the passage context of the sentence an excerpt ends
 * with, and the label it defines when it is the first sentence under one. For scoring what was excerpted from a
 * source as the curator scored it.
 */
export function excerptContexts(
  text: string,
  excerpts: readonly { start: number; end: number }[],
): { context: string; defines: string | null; heading: string | null; headingIsTitle: boolean }[] {
  const units = splitUnits(text);
  const contexts = passageContexts(text, units);
  const defined = definedLabels(units, text);
  const headings = headingsAbove(units);
  return excerpts.map((e) => {
    const i = units.findIndex((u) => u.start < e.end && e.end <= u.end);
    return i >= 0
      ? { context: contexts[i]!, defines: defined[i]!, heading: headings[i]!.title, headingIsTitle: headings[i]!.isTitle }
      : { context: '', defines: null, heading: null, headingIsTitle: false };
  });
}

/**
 * Headings that name no subject of their own: a manual's or a paper's furniture ("DESCRIPTION", "Summary"). A section
 * of the report is not named by one; the heading above it is used instead.
 */
const GENERIC_HEADING =
  /^(?:abstract|about|background|contents|table of contents|description|details|discussion|examples?|faq|further reading|introduction|key (?:facts|findings|points)|methods?|name|notes?|options|overview|references|results|see also|sources|summary|synopsis|conclusions?|source code(?::.*)?)$/i;

/**
 * A heading that states a case of the section above it ("When `importModuleDynamically` is `vm.constants.…`", "If the
 * process was started with …"): it reads as a sentence, not a subject, so the heading above it names the section
 * (decision 0098).
 */
const CONDITION_HEADING = /^(?:when|whenever|if|unless|whether|in case|once)\b/i;

/**
 * A heading as a section title: without its numbering ("3.2 "), markup and closing colon; null when generic or a
 * condition. Underscores inside a word are a code name's ("USE_MAIN_CONTEXT_DEFAULT_LOADER"), not emphasis, and stay.
 */
export function headingTitle(text: string): string | null {
  const t = text
    .replace(/^#+\s*/, '')
    .replace(/^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+/, '')
    .replace(/[*`]/g, '')
    .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
    .replace(/[:.\s]+$/, '')
    .trim();
  if (t.length < 3 || t.length > 120 || GENERIC_HEADING.test(t) || CONDITION_HEADING.test(t)) return null;
  return t;
}

/**
 * The nearest heading above each unit that names a subject (generic ones are passed over for the one above them), and
 * whether it is the document's title (its first line): a title names the whole document, not one of its passages.
 */
function headingsAbove(units: readonly Unit[]): { title: string | null; isTitle: boolean }[] {
  const open: { level: number; title: string | null }[] = [];
  return units.map((u, i) => {
    if (u.kind === 'heading') {
      // The text's first line, when a heading, is its title: above every other heading, markdown or plain.
      const level = i === 0 ? 0 : (/^#+/.exec(u.text)?.[0].length ?? 6);
      while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
      open.push({ level, title: headingTitle(u.text) });
      return { title: null, isTitle: false };
    }
    for (let j = open.length - 1; j >= 0; j--) if (open[j]!.title) return { title: open[j]!.title, isTitle: open[j]!.level === 0 };
    return { title: null, isTitle: false };
  });
}

/**
 * The label each unit opens, when it is the first sentence under it (the label is the unit right before it): the
 * definition of a term line, the first sentence of a section. Under a call signature, given the text, also the
 * sentences after it in its paragraph. Null for other units.
 */
export function definedLabels(units: readonly Unit[], text?: string): (string | null)[] {
  const out: (string | null)[] = [];
  // The signature or option whose description the previous unit belongs to, if any, and how many units of it were read.
  let open: { label: string; option: boolean; read: number } | null = null;
  units.forEach((u, i) => {
    const before = units[i - 1];
    let defines: string | null = null;
    let next: typeof open = null;
    if (!before || u.kind === 'heading' || u.kind === 'table-row' || isLabel(u)) defines = null;
    else if (isLabel(before)) {
      defines = before.text;
      const option = isOptionLabel(before);
      if (option || isSignature(before)) next = { label: before.text, option, read: 1 };
    }
    // Given the text, the rest of a signature's first paragraph defines it too (decision 0145): "Run the command
    // described by args.  Wait for command to complete, then return a CompletedProcess instance." is one description of
    // run(). An option's description runs on to the next label, over paragraphs (0151): under "--abort", "If there
    // were uncommitted worktree changes present when the merge started, git merge --abort will …" is a paragraph of its
    // own. Only these: another term line's or a heading's later sentences are as often about something else (decision
    // 0141 took every label's, and lake-varen's q02 lost two points).
    else if (
      open !== null &&
      text !== undefined &&
      u.kind === 'sentence' &&
      before.kind === 'sentence' &&
      (open.option ? open.read < OPTION_DESCRIPTION_UNITS : !paragraphBreak(text, before.end, u.start))
    ) {
      defines = open.label;
      next = { ...open, read: open.read + 1 };
    }
    out.push(defines);
    open = next;
  });
  return out;
}

/** Stems of content words with their positions among the content words, for proximity. */
function positions(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  contentStems(text).forEach((s, i) => {
    const list = out.get(s);
    if (list) list.push(i);
    else out.set(s, [i]);
  });
  return out;
}

/** Phrases of a query: pairs of content words adjacent in it, or separated by one function word ("root of the logger" no, "stash pop" yes). */
export function queryPhrases(query: string): [string, string][] {
  const tokens = tokenize(query);
  const pairs: [string, string][] = [];
  let last: { stem: string; at: number } | null = null;
  tokens.forEach((t, at) => {
    if (STOPWORDS.has(t) || t.length < 2) return;
    const [s] = contentStems(t);
    if (s === undefined) return;
    if (last && at - last.at <= 2 && last.stem !== s) pairs.push([last.stem, s]);
    last = { stem: s, at };
  });
  return pairs;
}

const wordCount = (text: string): number => contentWords(text).length;

function near(a: number[] | undefined, b: number[] | undefined): boolean {
  if (!a || !b) return false;
  return a.some((x) => b.some((y) => Math.abs(x - y) <= PROXIMITY_WINDOW));
}

export class PassageScorer {
  // A sentence's length is its number of words, not of the forms matchStems makes of them.
  private readonly sentences = new Bm25Index<string>(matchStems, wordCount);
  private readonly contexts = new Bm25Index<string>(matchStems, wordCount);
  private readonly positions: Map<string, number[]>[];
  /** Each unit's label, when it defines one: its terms (matchStems) and the options it names; made once, read per query. */
  private readonly labels: ({ named: Set<string>; options: string[] } | null)[];

  constructor(private readonly units: readonly { text: string; context: string; defines?: string | null }[]) {
    units.forEach((u, i) => {
      this.sentences.add(String(i), u.text);
      this.contexts.add(String(i), u.context);
    });
    this.positions = units.map((u) => positions(u.text));
    this.labels = units.map((u) => (u.defines ? { named: new Set(matchStems(u.defines)), options: optionNames(u.defines) } : null));
  }

  /** Every unit with a positive score for the query, in no particular order. */
  score(query: string): PassageHit[] {
    const terms = [...new Set(queryStems(query))];
    const phrases = queryPhrases(query);
    const byIndex = new Map<number, { score: number; matched: Set<string> }>();
    const entry = (i: number) => {
      let e = byIndex.get(i);
      if (!e) byIndex.set(i, (e = { score: 0, matched: new Set() }));
      return e;
    };
    for (const hit of this.sentences.searchTerms(terms)) entry(Number(hit.id)).score += hit.score;
    for (const hit of this.contexts.searchTerms(terms)) entry(Number(hit.id)).score += CONTEXT_WEIGHT * hit.score;
    // An intent's answer words count as the question's word they answer, in the sentence itself only.
    const intents = intentTerms(terms, query);
    for (const [asked, answers] of intents) {
      for (const hit of this.sentences.searchTerms(answers)) {
        const e = entry(Number(hit.id));
        e.score += INTENT_WEIGHT * hit.score;
        e.matched.add(asked);
      }
    }
    // An intent answered under headings ("What did the tests find?" under "3. Results"): its heading words count as the
    // question's word in the sentence's context, at HEADING_INTENT_WEIGHT.
    for (const [asked, headings] of headingTerms(terms, query)) {
      for (const hit of this.contexts.searchTerms(headings)) {
        const e = entry(Number(hit.id));
        e.score += HEADING_INTENT_WEIGHT * hit.score;
        e.matched.add(asked);
      }
    }
    for (const [i, e] of byIndex) {
      const own = this.positions[i]!;
      const id = String(i);
      for (const t of terms) if (this.sentences.hasTerm(id, t) || this.contexts.hasTerm(id, t)) e.matched.add(t);
      for (const [a, b] of phrases) {
        if (near(own.get(a), own.get(b))) e.score += (PROXIMITY_WEIGHT * (this.sentences.idf(a) + this.sentences.idf(b))) / 2;
      }
    }
    // A definition: the first sentence under a label that names a question term answers what that term does. An option
    // the question names verbatim ("git commit --amend") is asked about by name: its description weighs
    // NAMED_OPTION_WEIGHT times its idf instead (decision 0151).
    const askedOptions = new Set(optionNames(query));
    this.labels.forEach((label, i) => {
      if (label === null) return;
      const { named, options } = label;
      const hits = terms.filter((t) => named.has(t));
      // A label holding a word that answers an intent ("--abort" for "back out") names the question's word, at INTENT_WEIGHT.
      const answered = [...intents].filter(([asked, answers]) => !named.has(asked) && answers.some((a) => named.has(a)));
      if (hits.length === 0 && answered.length === 0) return;
      const verbatim = new Set(options.filter((o) => askedOptions.has(o)).flatMap((o) => matchStems(o)));
      const e = entry(i);
      for (const t of hits) {
        e.score += (verbatim.has(t) ? NAMED_OPTION_WEIGHT : DEFINITION_WEIGHT) * this.sentences.idf(t);
        e.matched.add(t);
      }
      for (const [asked, answers] of answered) {
        const idf = Math.max(...answers.filter((a) => named.has(a)).map((a) => this.sentences.idf(a)));
        e.score += INTENT_WEIGHT * DEFINITION_WEIGHT * idf;
        e.matched.add(asked);
      }
    });
    const expansion = this.expansion(byIndex, new Set(terms));
    if (expansion.length > 0) {
      for (const hit of this.sentences.search(expansion.join(' '))) {
        const e = byIndex.get(Number(hit.id));
        if (e) e.score += EXPANSION_WEIGHT * hit.score;
      }
    }
    return [...byIndex.entries()].filter(([, e]) => e.score > 0).map(([index, e]) => ({ index, score: e.score, matched: e.matched.size }));
  }

  /**
   * Words the question does not use but its best sentences share (in at least two of them), rarest first, as they are
   * written in the source: "stash" pulls in "pop" and "apply" from the page that answers it.
   */
  private expansion(byIndex: Map<number, { score: number; matched: Set<string> }>, queryTerms: Set<string>): string[] {
    const best = [...byIndex.entries()]
      .filter(([, e]) => e.matched.size >= 2)
      .sort((a, b) => b[1].score - a[1].score || a[0] - b[0])
      .slice(0, EXPANSION_SENTENCES);
    const counts = new Map<string, { n: number; word: string }>();
    for (const [i] of best) {
      const seen = new Set<string>();
      for (const word of contentWords(this.units[i]!.text)) {
        const s = stem(word);
        if (queryTerms.has(s) || seen.has(s) || /^\d/.test(s)) continue;
        seen.add(s);
        const c = counts.get(s);
        if (c) c.n++;
        else counts.set(s, { n: 1, word });
      }
    }
    return [...counts.entries()]
      .filter(([, c]) => c.n >= 2)
      .map(([s, c]) => ({ word: c.word, weight: c.n * this.sentences.idf(s) }))
      .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1))
      .slice(0, EXPANSION_TERMS)
      .map((x) => x.word);
  }
}

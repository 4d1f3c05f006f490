import { namedStems } from './answer-relevance';
import { asWritten, topicPhrases } from './topics';

/*
 * The parts of a research question, for the offline question architect and outline: its clauses ("What caused X, and
 * how large was it?" asks two things), with pronouns standing for the first clause's subject resolved ("how large was
 * X?"), and that subject (the question's focus), which perspectives' questions are asked about.
 */

const WH = 'what|which|who|whom|whose|when|where|why|how';
const AUX = 'is|are|was|were|do|does|did|can|could|should|will|would|has|have|had|may|might|must';
// A new clause starts at "and"/"but"/";"/"," followed by a question word or an auxiliary that opens a question.
const CLAUSE_BREAK = new RegExp(
  `\\s*(?:,\\s*(?:and|but|or)\\s+|;\\s*|\\s+(?:and|but|or)\\s+|,\\s+(?=(?:what|which|who|why|how)\\b))(?=(?:${WH}|${AUX})\\b)`,
  'i',
);
const LEADING_WH = new RegExp(`^(?:${WH})\\b\\s*`, 'i');
const LEADING_AUX = new RegExp(`^(?:${AUX})\\b\\s*`, 'i');
const PRONOUN = /\b(?:it|they|them|this|these)\b/gi;
// The asker ("how do I …", "can we …"): never what a question is about.
const ASKER = /^(?:i|we|you|one|me|us)$/i;
// "When I backport a fix, how do I …": a leading clause that sets the scene (a conjunction and a subject, no inverted
// auxiliary), or one that opens with no question word at all ("In an interactive rebase, what …"), is context for the
// question that follows, not a question of its own.
const SCENE = new RegExp(`^(?:when|where|if|once|after|before|while)\\s+(?!(?:${AUX})\\b)`, 'i');
// "For how long can …", "By how much did …": a preposition can come before the question word.
const PREPOSITION = 'for|in|by|to|from|at|on|of|with|since|until|after|before';
const LEADING_PREPOSITION = new RegExp(`^(?:${PREPOSITION})\\s+(?=(?:${WH})\\b)`, 'i');
const OPENS_QUESTION = new RegExp(`^(?:(?:${PREPOSITION})\\s+)?(?:${WH}|${AUX})\\b`, 'i');
const MAX_FOCUS_WORDS = 12;
/**
 * "In asyncio, what is …", "For a release, which …": a phrase before the question word, ended by a comma, says where the
 * question is asked, not what it asks about (decision 0145); the subject is looked for after it.
 */
const LEADING_SETTING = new RegExp(`^(?:${PREPOSITION})\\s+[^,]{1,60},\\s*(?=(?:${WH})\\b)`, 'i');
/**
 * "What is the difference between X and Y when one of the tasks raises an exception": the subject ends where a
 * subordinate clause begins (decision 0145); the clause is the case the question asks about, not its subject.
 */
const SUBORDINATE = /^(?:when|whenever|if|unless|while|because|although|once)$/i;

export interface QuestionParts {
  /** Each clause as a question of its own, pronouns resolved; one entry when the question asks one thing. */
  clauses: string[];
  /** What the question is about: the first clause's subject ("the decline of Lake Varen's water level"). */
  focus: string;
}

function asQuestion(clause: string): string {
  const t = clause.trim().replace(/[?.!]+$/, '');
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}?`;
}

const DO_AUX = /^(?:do|does|did|can|could|should|will|would|may|might|must)\b\s*/i;
const DETERMINER = /^(?:the|a|an|its|their|this|these)$/i;
// Past forms that do not end in -ed ("Which factors drove X").
const IRREGULAR_PAST = new Set(
  'drove made led took gave built brought became began grew fell rose saw won lost kept left put set cut'.split(' '),
);
const isVerbLike = (w: string | undefined) =>
  w !== undefined && (/^\w+ed$/i.test(w) || new RegExp(`^(?:${AUX})$`, 'i').test(w) || IRREGULAR_PAST.has(w.toLowerCase()));

/**
 * After "does"/"can"…, the subject ends where the verb begins. The verb is a bare infinitive ("did the water level of Lake
 * Varen fall between …", "does the cell maker accept that …", "did independent laboratory tests of VB-36 packs find"):
 * a lower-case word with no -s, -ed or -ing ending, followed by what opens its object or adverbial (a determiner, "that",
 * "whether", a preposition other than "of", a name), or last when the question word asks for its object or its time
 * ("What did … find?", "When did … begin?"; not "How does VACUUM reclaim storage?"). "of" and names belong to the
 * subject. Without such a word, the old shape: a determiner, a word, then capitalised or possessive words. The old shape
 * alone gave "the water" for Lake Varen's water level and "independent" for the laboratory tests (decision 0169).
 */
function leadingNounPhrase(words: readonly string[], verbLast: boolean): string[] {
  const first = DETERMINER.test(words[0] ?? '') ? 1 : 0;
  // The asker ("do I …") is the subject the caller looks past.
  if (ASKER.test(words[0] ?? '')) return words.slice(0, 1);
  const subjectBefore = (j: number) => {
    const subject = words.slice(0, j);
    while (subject.length > 1 && ADVERB.test(subject.at(-1)!)) subject.pop();
    return subject;
  };
  for (let j = first + 1; j < words.length; j++) {
    const word = words[j]!;
    // "Why does json.loads(json.dumps(d)) not give back …": the verb follows the negation.
    if (/^(?:not|never)$/i.test(word)) return subjectBefore(j);
    const ends = /[,;:]$/.test(word);
    const next = ends ? undefined : words[j + 1];
    const last = next === undefined && (verbLast || ends);
    if (isBareVerb(word.replace(/[,;:]$/, '')) && (last || (next !== undefined && (VERB_FOLLOWER.test(next) || /^\p{Lu}/u.test(next)))))
      return subjectBefore(j);
  }
  let i = first;
  if (i >= words.length) return [];
  i++;
  while (i < words.length && (/^[A-Z]/.test(words[i]) || /'s$|’s$/.test(words[i - 1]))) i++;
  return words.slice(0, i);
}

/** What follows a verb and opens its object or adverbial: never part of the subject before it. */
const VERB_FOLLOWER = new RegExp(
  `^(?:the|a|an|its|their|this|these|those|that|whether|if|how|what|which|who|when|where|why|it|them|me|us|him|her|you|my|our|your|any|all|now|today|first|so|too|to|into|between|from|at|on|in|by|for|with|about|since|until|after|before|during|up|out|down|off|over|under)$|[,;:]$`,
  'i',
);
/** An adverb between a subject and its verb ("did Arvenna first learn"). */
const ADVERB = /^(?:first|ever|still|now|already|also|really|actually|just|\w+ly)$/i;
/** A bare infinitive's shape: lower case, no digits, no plural or participle ending ("pass" and "need" keep theirs). */
function isBareVerb(w: string): boolean {
  if (!/^[a-z][a-z-]*$/.test(w) || DETERMINER.test(w) || VERB_FOLLOWER.test(w) || /^(?:of|and|or|nor|but|than|as)$/.test(w)) return false;
  if (/(?:ing|ly)$/.test(w) || (/ed$/.test(w) && !/eed$/.test(w))) return false;
  return !/s$/.test(w) || /(?:ss|us|is)$/.test(w);
}

// "… with git restore", "… using argparse and …": what a how-to question works with, up to a conjunction or a comma.
const INSTRUMENT = /\b(?:with|using|via)\s+/gi;
const INSTRUMENT_END = /\s+(?:but|and|or|to|so|when|if|while|because|instead)\b|[,;:]/i;
const MAX_INSTRUMENT_WORDS = 6;

/**
 * What a question asked by its asker ("How do I unstage a file with git restore", "Why do I get blank lines when
 * writing a CSV file with Python's csv module") is about: the tool it names last with "with", "using" or "via"; null
 * when it names none.
 */
function instrumentOf(body: string): string | null {
  const last = [...body.matchAll(INSTRUMENT)].at(-1);
  if (last === undefined) return null;
  const after = body.slice(last.index + last[0].length);
  const named = after.slice(0, after.search(INSTRUMENT_END) >= 0 ? after.search(INSTRUMENT_END) : after.length).trim();
  const words = named.split(/\s+/).filter((w) => w.length > 0);
  return words.length > 0 && words.length <= MAX_INSTRUMENT_WORDS ? named : null;
}

// Where the object of an asker's verb ends: a comma, a preposition, a conjunction, a participle that qualifies it.
const OBJECT_END = new RegExp(`^(?:${PREPOSITION}|into|between|including|using|via|and|or|but|so|when|if|while|without|instead)$`, 'i');
const OWNED_BY_ASKER = /^(?:my|our|your)$/i;
const MAX_OBJECT_WORDS = 6;

/**
 * What an asker's question without a tool is about: the object of its verb ("How do I get the submodules, including
 * nested ones" → "the submodules", "How do I search git history for …" → "git history"); null when the object is the
 * asker's own ("my work": it names nothing a source documents) or not found. The question's key phrase stood in for it,
 * and "what state are they checked out in?" became "What state are including nested ones checked out in?" (0153).
 */
function objectOf(afterAux: string): string | null {
  const words = afterAux.split(/\s+/).filter((w) => w.length > 0);
  if (!ASKER.test(words[0] ?? '')) return null;
  let i = 1;
  while (i < words.length && /ly$/i.test(words[i]!)) i++;
  const object: string[] = [];
  for (const w of words.slice(i + 1)) {
    if (OBJECT_END.test(w)) break;
    object.push(w.replace(/[,;:]$/, ''));
    if (/[,;:]$/.test(w)) break;
  }
  if (object.length === 0 || object.length > MAX_OBJECT_WORDS || OWNED_BY_ASKER.test(object[0]!)) return null;
  return object.join(' ');
}

/** The subject a clause asks about, or null when none is found by its shape. */
function subjectOf(clause: string): string | null {
  const body = clause
    .trim()
    .replace(/[?.!]+$/, '')
    .replace(LEADING_SETTING, '')
    .replace(LEADING_PREPOSITION, '');
  if (!LEADING_WH.test(body)) return null;
  let rest = body.replace(LEADING_WH, '');
  // "How large was X", "How far below average was X": skip what the question word qualifies, up to the auxiliary.
  if (/^how\b/i.test(body) && !LEADING_AUX.test(rest)) {
    const words = rest.split(/\s+/);
    const aux = words.findIndex((w, i) => i > 0 && i <= 4 && new RegExp(`^(?:${AUX})$`, 'i').test(w));
    if (aux > 0) {
      const after = words.slice(aux + 1);
      // "How much water was withdrawn for X": a passive verb follows, so the subject is the noun before it.
      const passive = isVerbLike(after[0]) || /^\w+(?:en|wn)$/i.test(after[0] ?? '');
      rest = passive ? [words.slice(1, aux).join(' '), ...after].join(' ') : words.slice(aux).join(' ');
      if (passive) return rest;
    } else rest = rest.replace(/^\w+\s+/, '');
  }
  let words: string[];
  if (DO_AUX.test(rest))
    words = leadingNounPhrase(rest.replace(DO_AUX, '').split(/\s+/), /^(?:what|which|who|whom|when|where)\b/i.test(body));
  else if (LEADING_AUX.test(rest)) {
    words = rest.replace(LEADING_AUX, '').split(/\s+/);
    // "How was the bridge built", "Why has Lake Varen's water level dropped so sharply since 2015": the subject ends
    // at its participle.
    // "an annotated and a lightweight tag": a participle after a determiner qualifies a noun (git-manual q12).
    const verb = words.findIndex((w, i) => i > 0 && isVerbLike(w) && !DETERMINER.test(words[i - 1] ?? ''));
    if (words.length > 2 && verb > 0) words = words.slice(0, verb);
  } else if (/^(?:what|which|who)\b/i.test(body)) {
    words = rest.split(/\s+/);
    if (isVerbLike(words[0]) || /^\w+s$/i.test(words[0])) words = isVerbLike(words[1]) ? words.slice(2) : words.slice(1);
    else if (isVerbLike(words[1])) words = words.slice(2);
    else return null;
  } else return null;
  words = words.filter((w) => w.length > 0);
  const subordinate = words.findIndex((w, i) => i > 0 && SUBORDINATE.test(w));
  if (subordinate > 0) words = words.slice(0, subordinate);
  if (words.length === 0 || words.length > MAX_FOCUS_WORDS) return null;
  // A subject that is only a pronoun ("how does it work") names nothing, nor does the asker ("how do I …").
  if (words.length === 1 && ASKER.test(words[0])) return instrumentOf(body) ?? objectOf(rest.replace(DO_AUX, ''));
  if (words.length === 1 && /^(?:it|they|them|this|these)$/i.test(words[0])) return null;
  return words.join(' ');
}

/** The question's first key phrase in its own casing ("Lake Varen's water level"), extracted only when needed. */
function keyPhraseAsWritten(text: string): string | undefined {
  const phrase = topicPhrases(text, 1)[0];
  return phrase ? asWritten(phrase, text) : undefined;
}

export function questionParts(question: string): QuestionParts {
  const text = question.replace(/\s+/g, ' ').trim();
  const raw = text
    .replace(/[?.!]+$/, '')
    .split(CLAUSE_BREAK)
    .map((c) => c.trim())
    .filter((c) => c.split(/\s+/).length >= 2);
  // "I lost a commit after a reset. For how long …": what is asked is in the clause's last sentence.
  const lastSentence = (c: string) => c.split(/(?<=[.!?])\s+/).at(-1) ?? c;
  // A leading clause that only sets the scene goes with the question after it.
  const lead = raw.length > 1 ? lastSentence(raw[0] ?? '') : '';
  if (raw.length > 1 && (SCENE.test(lead) || !OPENS_QUESTION.test(lead))) {
    const [scene, next] = raw.splice(0, 2);
    raw.unshift(`${scene}, ${next}`);
  }
  const asked = raw[0] && lastSentence(raw[0]);
  const focus = (asked && subjectOf(asked)) ?? keyPhraseAsWritten(text) ?? text.replace(/[?.!]+$/, '');
  if (raw.length <= 1) return { clauses: [asQuestion(text)], focus };
  const clauses = raw.map((c, i) => asQuestion(i === 0 ? c : c.replace(PRONOUN, focus)));
  return { clauses, focus };
}

// The asker as a word of the question ("How do I …", "my program", "can we …", "should you …").
const ASKER_WORD = /\b(?:I|[Mm]y|[Mm]e|[Ww]e|[Oo]ur|us|[Yy]ou|[Yy]our)\b/;

/**
 * Whether a question is about using a tool or an interface rather than about the world: its asker wants to do
 * something ("How do I unstage a file …", "Why does … seem to do nothing in my program"), or it names what a manual
 * documents — an option, a call, an identifier, a command in capitals ("--force-with-lease", "json.loads()", "VACUUM").
 */
export function asksAboutTool(question: string): boolean {
  return ASKER_WORD.test(question) || namedStems(question).size > 0;
}

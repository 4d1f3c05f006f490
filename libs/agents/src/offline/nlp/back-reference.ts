/*
 * A sentence that points back (decision 0112): it opens with a pronoun, a demonstrative or a phrase that needs the
 * sentence before it ("Its level has fallen sharply …", "Together these two factors account for …", "The figure
 * compares …"). In a report it reads only right after the sentence it points at — the one before it in its own source
 * — so the offline writer keeps the two together or leaves it out, and the report lint counts one standing anywhere
 * else. Shared by both, so what the lint counts is what the writer avoids.
 */

// A summing-up word that may stand before the pointing word ("Together these …"). A contrastive connective ("However,
// they still use …") is not counted: documentation opens many a sentence so, under the item it describes (python-stdlib's
// q02 lost its answer to it).
const LEAD = String.raw`(?:(?:together|taken together|combined|in total|in all|all told|overall)\s*,?\s+)?`;

/**
 * Nouns by which a demonstrative names what it means: the text itself ("This report addresses …"), or the documented
 * item the passage stands under ("This function does nothing if the root logger already has handlers": documentation
 * describes a function, method or option under its heading, and the report's section names it). Not a pointer to a
 * sentence.
 */
const DOCUMENT =
  '(?:report|note|section|chapter|paper|article|document|page|study|review|summary|guide|manual|submission|bulletin|release|statement|timeline|survey|entry|appendix|book|site|website|tutorial|faq|handbook|function|method|class|module|package|library|option|flag|parameter|argument|attribute|property|field|command|subcommand|variable|setting|constructor|exception|keyword|decorator|object|call|api|endpoint|tool|program|utility)';

// "It is estimated that …", "It was not until 2017 that …": "it" points at the clause after it, not back.
const EXPLETIVE_IT =
  /^it\s+(?:is|was|has been|had been|seems|seemed|appears|appeared|remains|remained|would be|will be|may be|might be|can be|could be|should be|must be)\s+(?:\S+\s+){0,4}?(?:that|to|whether|how|why|when|if|not until)\b/i;

// "It will be used to launch the workers.", "It is designed for …": a passive "it" stands for something named before, though
// an expletive's words follow it (decision 0132; python-stdlib's "It will be used to launch the workers." opened a section).
const PASSIVE_IT =
  /^it\s+(?:is|was|has been|had been|will be|would be|may be|might be|can be|could be|should be|must be|is being|was being)\s+(?:(?:not|also|only|then|now|often|usually|typically|mainly|primarily|generally|always|never|still|already|currently|normally)\s+)*(?:\w+ed|used|made|meant|known|given|done|set|built|written|taken|seen|shown|held|kept|run|sent|put|found|said|told|brought|bound|chosen|left|read|thrown|raised|passed|called|returned|ignored|treated)\s+(?:to|as|for|by|in|on|at|when|if|with|from|into|only|unless|before|after)\b/i;

// A prepositional pointer naming the ground a statement stands on ("On this basis the number of licences fell …", "By that
// measure …"). It points back, but the clause after it is a whole statement: a reader is shown that statement without it
// (`withoutSidePointer`, applied by `readerSentence`), and the sentence itself is excerpted, claimed and compared like any
// other (decision 0136: counted as pointing back, 0132, it lost the interview run's only dispute, the panel's 5.0 metres).
const SIDE_POINTER = String.raw`(?:(?:on|upon) (?:this|that|these|those) (?:basis|bases|grounds?|view|reading|account|evidence)|by (?:this|that|these|those) (?:measures?|definitions?|reckoning|standards?|criteria|criterion)|(?:on|from) (?:this|that|these|those) figures?)`;

// Pronouns and demonstratives that take their meaning from a sentence before (a side pointer is read apart, above). "For this reason, some git commands … ignore lightweight tags" is not one:
// documentation says so right after its reason, and git-manual's q12 lost that key point when it was.
const POINTING = new RegExp(
  String.raw`^${LEAD}(?:it|its|they|their|them|he|she|his|her|this|these|that|those|such|both|the latter|the former|the same|the two|the three|the four|all three|all four|all of these|each of these|neither of these|either of these|none of these)\b`,
  'i',
);

// A definite noun standing for something said before ("The figure compares …", "The difference arises …"), when a verb
// follows it at once; with what it names after it ("The figure of 52 million m³ …", "The difference between …") it
// stands on its own.
const STAND_IN = new RegExp(
  String.raw`^${LEAD}the\s+(?:figures?|numbers?|estimates?|results?|difference|differences|change|changes|gap|rest|remainder|latter|former|above|previous one|same)\s+(?!of\b|from\b|between\b|in\b|for\b|that\b|which\b|who\b|on\b|at\b|to\b|by\b|with\b|among\b|and\b|or\b|,)[a-z]+`,
  'i',
);

/**
 * A short opening phrase of place or frame before the pointing word: "In the authority's water-balance model, these two
 * factors account for about 70% of the loss." (lake-varen q01 showed it without the factors, decision 0166).
 */
const FRAMED = /^(?:in|under|within|for|on|at|by|according to|across|over|during)\s[^,;:.]{1,60},\s+/i;

/**
 * A clause ending on what it compares with, unnamed: "Our nine-station figure falls between the two." The two are in the
 * sentence before (decision 0166).
 */
const UNNAMED_OBJECT =
  /\b(?:between|of|than|from|with|like|unlike)\s+(?:the\s+two|the\s+three|the\s+latter|the\s+former|both|them|these|those)\s*[.;!?]?["”’)]*$/i;

/** A sentence that is a subordinate clause only: a contrast ("Whereas …", "Although …") with no comma before its end. */
const SUBORDINATE_ONLY = /^(whereas|although|though)\b[^,;:]*$/i;

/**
 * The opening of a sentence that points back to a sentence before it, or null when the sentence stands on its own.
 * A demonstrative naming the text itself ("This report addresses …", "This note explains …") is not one: it names
 * what it means (whether a source's self-description is a finding is the boilerplate filter's business).
 */
export function pointsBack(sentence: string): string | null {
  const s = sentence
    .replace(/^[\s"'“‘([]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (EXPLETIVE_IT.test(s) && !PASSIVE_IT.test(s)) return null;
  if (new RegExp(String.raw`^${LEAD}(?:this|these|that|those|the present|the following)\s+(?:\w+\s+)?${DOCUMENT}s?\b`, 'i').test(s))
    return null;
  // "That the lake fell is not disputed": "that" opening a clause, not pointing.
  if (/^that\s+(?:the|a|an)\b/i.test(s)) return null;
  // "Both the authority and the growers date it to 2015": "both … and" names what it means.
  if (/^both\s+(?:\S+\s+){0,5}?and\b/i.test(s)) return null;
  // "Whereas a "lightweight" tag is simply a name for an object (usually a commit object)." — a contrast with no main
  // clause of its own completes the sentence before it (git-manual's q12 showed it alone, and never excerpted its main
  // clause: "Tag objects … are called "annotated" tags; they contain …").
  const contrast = SUBORDINATE_ONLY.exec(s);
  if (contrast) return contrast[1]!;
  const m = POINTING.exec(s) ?? STAND_IN.exec(s);
  if (m !== null) return m[0];
  // After a short frame ("In the authority's model, these two factors …"), the same test on what follows it.
  const framed = FRAMED.exec(s);
  const inner = framed ? pointsBack(s.slice(framed[0].length)) : null;
  if (inner !== null) return inner;
  return UNNAMED_OBJECT.exec(s)?.[0] ?? null;
}

/**
 * Whether a pointing opening points at several things ("The two series …", "These two factors …", "Both …", "They …"):
 * after the sides of a dispute it points at them, which a singular one ("It is a larger number …") cannot.
 */
export function pointsAtSeveral(opening: string): boolean {
  return /\b(?:two|three|four|both|these|those|they|their|them|all|each|neither|either|none)\b/i.test(opening);
}

// A restating connective ("Put simply, the lake is more than six metres lower at its worst …", "In other words, …"): it
// says the statement after it restates the sentence before, which a reader of the report may not be shown; the statement
// itself stands on its own, so it is shown without the connective, as a side pointer's is (the demo's "How large"
// section opened a paragraph with "Put simply," after a sentence of another source).
const RESTATING = String.raw`(?:put simply|simply put|to put it simply|in other words|in short|in plain terms|that is to say)`;

// The connective's comma is required: "In short supply, …" is no restatement.
const SIDE_POINTER_OPENING = new RegExp(String.raw`^(?:${SIDE_POINTER}\s*,?\s+|${RESTATING}\s*,\s*)`, 'i');

/** The side pointer or restating connective a sentence opens with ("On this basis", "Put simply"), or null. */
export function sidePointer(sentence: string): string | null {
  const m = SIDE_POINTER_OPENING.exec(sentence.trim());
  return m === null ? null : m[0].replace(/[\s,]+$/, '');
}

/**
 * A statement opening with a side pointer ("On this basis the number of fishing licences fell from 1,410 in 2015 to 480 in
 * 2023."), stated without it ("The number of fishing licences fell …"): what a reader is shown wherever it stands, since
 * the sentence it points at may not be shown before it (decision 0136). Null when the sentence does not open so, or when
 * what follows the pointer still points back or is too short to be a statement.
 */
export function withoutSidePointer(sentence: string): string | null {
  const pointer = sidePointer(sentence);
  if (pointer === null) return null;
  const rest = sentence
    .trim()
    .slice(pointer.length)
    .replace(/^[\s,]+/, '');
  if (rest.split(/\s+/).length < 4 || !/[.!?]$/.test(rest)) return null;
  const stated = rest.charAt(0).toUpperCase() + rest.slice(1);
  return pointsBack(stated) === null ? stated : null;
}

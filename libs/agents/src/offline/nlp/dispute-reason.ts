import { pointsAtSeveral, pointsBack } from './back-reference';
import { comparable, extractQuantities, isTime, sameQuantity } from './quantities';
import { negationCues, normalizeWhitespace, statementStems } from './statement-terms';
import { contentStems, stem, tokenize } from './tokens';

/*
 * What a dispute's reader is told besides its sides (issue 25 items 4 and 5, decision 0096): the reason the sources give
 * for the difference, only when a sentence really gives one; otherwise, in our own words, what differs between the
 * sides (their periods, what one of them includes, the basis one names); and the point in dispute named as a reader
 * would name it ("how far the water level fell"), from the subject of the sides' statements.
 */

/**
 * Words naming how a figure was made: its measurement basis, method, period, definition or source. A sentence without
 * one explains no difference between figures, whatever cue of causation it has ("because of the savings scheme").
 */
const BASIS =
  /\b(?:annual[- ]mean|annual average|mean|average|minimum|maximum|highest|lowest|reference (?:level|gauge|period|point)|datum|compar(?:e|es|ed|ing)|measured|measurement|metered|estimated?|estimates|modell?ed|method|satellite|gauges?|series|survey|sampling|period|counts?|counted|includ(?:e|es|ed|ing)|exclud(?:e|es|ed|ing)|treats?|defin(?:e|es|ed|ition)|different questions?|different year|end year|baseline|according to|based on|choice of)\b/i;

/** Verbs that move a quantity: "how far it fell". */
const MOVES = new Set([
  'fell',
  'fall',
  'falls',
  'dropped',
  'drops',
  'declined',
  'declines',
  'rose',
  'rise',
  'rises',
  'risen',
  'fallen',
  'sank',
  'sunk',
  'grew',
  'grown',
  'shrank',
  'shrunk',
  'increased',
  'decreased',
  'climbed',
]);
const AUX = new Set([
  'has',
  'have',
  'had',
  'is',
  'are',
  'was',
  'were',
  'did',
  'does',
  'do',
  'will',
  'would',
  'may',
  'might',
  'can',
  'could',
]);
const COPULA = new Set(['is', 'are', 'was', 'were']);
/** Words between a verb and its figure: "fell by 4.2", "fell from 1,240", "average about 38". */
const BEFORE_FIGURE = new Set([
  'by',
  'from',
  'to',
  'of',
  'about',
  'approx',
  'approximately',
  'around',
  'nearly',
  'almost',
  'only',
  'some',
  'roughly',
  'just',
  'over',
  'under',
  'at',
]);
/** A lead that attributes the statement: "The authority's annual-mean series shows that …". */
const ATTRIBUTION =
  /^(.{3,120}?)\s+(?:(?:also|further|now|still|again)\s+)?(?:(?:shows?|showed|states?|stated|reports?|reported|finds?|found|says?|said|estimates?|estimated|concludes?|concluded)\s+that|(?:says?|said|claims?|claimed|argues?|argued|maintains?|maintained|insists?|insisted)(?=\s+(?:the|a|an|its|their|this|these|it|they)\s))\s+/i;
/** A connective opening a side ("But the fish population has not recovered."): not part of what it states. */
const OPENING_CONNECTIVE = /^(?:but|and|so|yet|however|still|thus|hence)\s*,?\s+/i;
const ACCORDING = /,?\s*according to ([^,.;]+)/i;
const INCLUDING = /\b(including|excluding|not including|except for)\s+([^,.;()]+)/gi;
/** Words that say two accounts differ: needed besides a basis when the dispute is not between figures. */
const DIFFERENCE = /\b(?:differs?|differ(?:ence|ences|ent|ed)|whereas|unlike|reasons?|disagree(?:s|d|ment)?|defensible)\b/i;
const DATE_WORDS =
  /^(?:in|on|at|since|during|until|before|after|early|late|mid|January|February|March|April|May|June|July|August|September|October|November|December|spring|summer|autumn|winter)$/i;
const ONSET = /\b(began|begun|begins?|started|starts?|commenced|commences)\b/i;

function plain(text: string): string {
  return normalizeWhitespace(text).replace(/[.!?]+$/, '');
}

/** A statement without its attribution: the clause that states the fact. */
function factClause(statement: string): string {
  const s = plain(statement).replace(OPENING_CONNECTIVE, '');
  const attributed = ATTRIBUTION.exec(s);
  const core = attributed ? s.slice(attributed[0].length) : s;
  return core.replace(ACCORDING, '').trim();
}

/** The years a statement names, in order, as its period ("2015–2024"), or null. */
export function periodOf(statement: string): string | null {
  // The period of the disputed figure: the clause it is in, not a later one ("…, and in 2022 our members drew …").
  const core = factClause(statement);
  const first = extractQuantities(core).find((q) => !isTime(q));
  const clauseEnd = first ? core.slice(first.end).search(/,\s+(?:and|but|while|whereas)\s|;/) : -1;
  const clause = clauseEnd >= 0 && first ? core.slice(0, first.end + clauseEnd) : core;
  const years = [...clause.matchAll(/(?<![\d.,])(1[89]\d\d|20\d\d)(?![\d.,]\d)/g)].map((m) => m[1]!);
  const distinct = [...new Set(years)];
  if (distinct.length === 0) return null;
  return distinct.length === 1 ? distinct[0]! : `${distinct[0]}–${distinct[distinct.length - 1]}`;
}

/** What a statement says it rests on: who states it ("the authority's annual-mean series"). */
function basisOf(statement: string): string | null {
  const s = plain(statement);
  const attributed = ATTRIBUTION.exec(s);
  if (attributed) return lowerFirst(attributed[1]!);
  const according = ACCORDING.exec(s);
  return according ? according[1]!.trim() : null;
}

/** What a statement says it counts in or out ("including club permits"). */
function inclusionsOf(statement: string): { verb: string; what: string }[] {
  return [...plain(statement).matchAll(INCLUDING)].map((m) => ({ verb: m[1]!.toLowerCase(), what: m[2]!.trim() }));
}

function lowerFirst(text: string): string {
  const [first = '', second = ''] = text.split(' ');
  // An acronym keeps its case, and so does a name ("Lake Varen": the next word is capitalised too).
  // A determiner opening the sentence is never part of a name ("The Tessel Canal" → "the Tessel Canal").
  if (/^(?:The|A|An|This|That|These|Those|Its|Their|Our)$/.test(first)) return text.charAt(0).toLowerCase() + text.slice(1);
  if (/^[A-Z][A-Z]/.test(first) || /^[A-Z]/.test(second)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The parts of a statement's fact clause: subject, verb (with its auxiliary) and what follows. */
interface Clause {
  subject: string;
  aux: string | null;
  verb: string;
  rest: string;
  /** The figure in dispute is a date: the point is when. */
  dated: boolean;
}

function clauseOf(statement: string): Clause | null {
  const core = factClause(statement);
  const words = core.split(' ');
  const figures = extractQuantities(core).filter((q) => !isTime(q));
  // The verb: the word before the first figure (prepositions skipped), or an onset verb, or a negated auxiliary.
  let verbAt = -1;
  let dated = false;
  if (figures.length > 0) {
    const before = core.slice(0, figures[0]!.start).trim().split(' ');
    let k = before.length - 1;
    while (k > 0 && BEFORE_FIGURE.has(before[k]!.toLowerCase())) k--;
    verbAt = k;
  } else {
    const onset = ONSET.exec(core);
    const negated = words.findIndex((w, i) => i > 0 && /^(?:not|never)$/i.test(w));
    const date = extractQuantities(core).find((q) => isTime(q));
    if (onset) verbAt = core.slice(0, onset.index).trim().split(' ').length;
    else if (negated > 0) verbAt = negated - 1;
    else if (date) {
      // A date in dispute: the verb before it ("opened to traffic in May 2016" → "opened").
      const before = core.slice(0, date.start).trim().split(' ');
      let k = before.length - 1;
      while (k > 0 && (DATE_WORDS.test(before[k]!) || BEFORE_FIGURE.has(before[k]!.toLowerCase()))) k--;
      while (k > 0 && !/(?:ed|en|wn|ne|un|ot|ew|an|on)$/i.test(before[k]!) && !AUX.has(before[k - 1]!.toLowerCase())) k--;
      verbAt = k;
      dated = true;
    }
  }
  if (verbAt <= 0 || verbAt >= words.length) return null;
  let subjectEnd = verbAt;
  let aux: string | null = null;
  if (AUX.has(words[verbAt - 1]!.toLowerCase()) && verbAt - 1 > 0) {
    aux = words[verbAt - 1]!;
    subjectEnd = verbAt - 1;
  }
  const subject = words.slice(0, subjectEnd).join(' ');
  if (!/[a-z]/i.test(subject)) return null;
  return { subject, aux, verb: words[verbAt]!, rest: words.slice(verbAt + 1).join(' '), dated };
}

/** A subject as it reads mid-sentence, less a place the question already names ("the water level", not "… of Lake Varen"). */
function subjectText(subject: string, question: string | undefined): string {
  let s = lowerFirst(subject);
  if (question) {
    const tail = /\s+(?:of|from|in|at|for)\s+((?:[A-Z][\w'’-]*\s?)+)$/.exec(s);
    if (tail && question.includes(tail[1]!.trim())) s = s.slice(0, tail.index);
  }
  return s;
}

/** Content stems of a phrase's words in lower case: a name ("Lake Varen") is the report's subject, not the quantity's. */
function commonStems(phrase: string): string[] {
  const lower = lowerFirst(phrase)
    .split(' ')
    .filter((w) => !/^[A-Z]/.test(w))
    .join(' ');
  return [...statementStems(lower)];
}

/**
 * The disputed quantity's own terms: its subject's words ("water level", "number of fishing licences"), or, when the
 * subject is a name, what the figure is of ("27% of its surface area"); never a place or a figure.
 */
function subjectStems(sides: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const side of sides) {
    const clause = clauseOf(side);
    let terms = clause ? commonStems(clause.subject) : [];
    if (clause && terms.length === 0) terms = commonStems(/\bof ([^,;()]+)/.exec(clause.rest)?.[1] ?? '');
    if (terms.length === 0) terms = commonStems(factClause(side));
    for (const t of terms) out.add(t);
  }
  return out;
}

/** A quantity named by what it counts or measures: "the number of fishing licences" is a count of licences. */
const QUANTITY_OF =
  /^(?:(?:the|a|an|its|their)\s+)?(?:(?:total|annual|overall|average|mean|yearly)\s+)?(?:number|amount|share|proportion|percentage|total|volume|count|rate|sum|quantity|size)\s+of\s+/i;
/**
 * Where a noun phrase ends: a preposition, a relative word, an auxiliary or a participle after its head ("withdrawals
 * from …", "licences issued …", "packs were produced …").
 */
const PHRASE_END =
  /\s(?:of|from|in|at|for|by|on|with|to|up|into|between|since|during|that|which|who|across|under|over|is|are|was|were|has|have|had|issued|recorded|measured|reported|published|produced|sold)(?=\s|$)/i;

/** The head of a noun phrase, less names: "the water level of Lake Varen" → "level"; "the number of fishing licences" → "licenc". */
function headOf(phrase: string): string | null {
  // Names are the report's subject, not the quantity's, wherever they stand ("Arvenna has received …": no head).
  const common = phrase
    .replace(/^(?:The|A|An|This|That|These|Those|Its|Their|Our)\s+/, '')
    .split(' ')
    .filter((w) => !/^[A-Z]/.test(w))
    .join(' ')
    .trim()
    .replace(QUANTITY_OF, '');
  const end = PHRASE_END.exec(` ${common}`);
  const group = end ? ` ${common}`.slice(0, end.index) : common;
  const stems = contentStems(group).filter((t) => !/\d/.test(t));
  return stems.length > 0 ? stems[stems.length - 1]! : null;
}

/** What a figure counts, from the words after it: "27% of its surface area" → area; "14 confirmed reports of …" → report. */
function countedAfterFigure(rest: string): string | null {
  const figure = extractQuantities(rest).find((q) => !isTime(q));
  const after = figure ? rest.slice(figure.end).trim() : '';
  const of = /^of\s+([^,;()]+)/.exec(after);
  return headOf(of ? of[1]! : (/^[^,;()]+/.exec(after)?.[0] ?? ''));
}

/**
 * What the disputed figures count or measure: each side's subject's head, or, when the subject is a name, what its
 * figure counts ("27% of its surface area" → "area", "14 confirmed reports of …" → "report"). A side without a figure
 * ("… first received a report … in March 2024") or that does not parse names none; null when no side names one.
 */
function quantityHeads(sides: readonly string[]): Set<string> | null {
  const out = new Set<string>();
  for (const side of sides) {
    const clause = extractQuantities(factClause(side)).some((q) => !isTime(q)) ? clauseOf(side) : null;
    const head = clause ? (headOf(clause.subject) ?? countedAfterFigure(clause.rest)) : null;
    if (head !== null) out.add(head);
  }
  return out.size > 0 ? out : null;
}

/**
 * Whether a sentence of the run's evidence explains why the sides differ: it names how a figure was made (basis,
 * method, period, definition or source), shares the disputed quantity's subject (a term of the sides' subject, or one
 * side's figure), states no side itself and is not a sentence of the report's body (a reason the reader already read
 * there would be shown twice). The same check applies to a reason chosen offline and to one a model rewrote.
 */
export function explainsDifference(sentence: string, sides: readonly string[], body: ReadonlySet<string> = new Set()): boolean {
  const text = plain(sentence);
  if (body.has(normalizeWhitespace(sentence)) || body.has(text)) return false;
  // A sentence pointing back at one thing ("It is a larger number because …") points at a sentence of its source the
  // reader does not see; one pointing at several ("The two series count different things") points at the sides it
  // follows (decision 0112).
  const opening = pointsBack(text);
  if (opening !== null && !pointsAtSeveral(opening)) return false;
  // The basis must be the sentence's own, not a word every side uses for the quantity ("average 38 million").
  const sideTerms = sides.map((s) => new Set(tokenize(s).map(stem)));
  const bases = [...text.matchAll(new RegExp(BASIS.source, 'gi'))].map((m) => m[0]);
  if (!bases.some((b) => !sideTerms.every((t) => tokenize(b).every((w) => t.has(stem(w)))))) return false;
  // Statements that are not figures differ in what they say: the sentence must say the accounts differ, and why.
  const figured = sides.some((s) => extractQuantities(factClause(s)).some((q) => !isTime(q)));
  if (!figured && !DIFFERENCE.test(text)) return false;
  // A sentence about figures of another kind ("18%" against metres) explains other figures; one about a figure when
  // the sides give none ("The difference from the authority's figure (18%) comes … from the choice of reference level",
  // beside "the fish population has recovered" and "has not recovered") explains a dispute over figures (decision 0166).
  const own = extractQuantities(text).filter((q) => !isTime(q));
  const theirs = sides.flatMap((s) => extractQuantities(s).filter((q) => !isTime(q)));
  if (own.length > 0 && (theirs.length === 0 || !own.some((f) => theirs.some((g) => comparable(f, g))))) return false;
  const lower = text.toLowerCase();
  if (sides.some((s) => lower.includes(plain(s).toLowerCase()) || plain(s).toLowerCase().includes(lower))) return false;
  const terms = new Set(tokenize(text).map(stem));
  // Between figures, the reason must speak of what they count or measure: a word of the sides' subject used of something
  // else is not enough ("the fish survey's results" explain nothing about "the number of fishing licences", decision 0124).
  // Between statements, a term of their subject.
  const heads = figured ? quantityHeads(sides) : null;
  const subject = heads ?? subjectStems(sides);
  if ([...subject].some((t) => terms.has(t))) return true;
  const figures = extractQuantities(text).filter((q) => !isTime(q));
  const sideFigures = sides.flatMap((s) => extractQuantities(s).filter((q) => !isTime(q)));
  return figures.some((f) => sideFigures.some((g) => sameQuantity(f, g, 0)));
}

/**
 * In our own words, what differs between the sides when no source says why: their periods, what one of them says it
 * includes or rests on; failing these, that the period is the same or that neither says how it was made.
 */
export function describeDifference(sides: readonly string[]): string {
  const n = NUMBER_WORDS[sides.length] ?? `${sides.length}`;
  const figured = sides.some((s) => extractQuantities(factClause(s)).some((q) => !isTime(q)));
  const noun = figured ? 'figures' : 'statements';
  const parts: string[] = [];
  const periods = sides.map(periodOf);
  const distinctPeriods = [...new Set(periods.filter((p): p is string => p !== null))];
  const dated = periods.filter((p) => p !== null).length;
  if (figured && dated >= 2 && distinctPeriods.length > 1)
    // Periods are listed with commas: "2015–2023 and 2015–2024" reads to the figure parser (and the guard) as a number.
    parts.push(
      distinctPeriods.length === 2 && sides.length === 2
        ? `The ${n} ${noun} cover different periods: one ${distinctPeriods[0]}, the other ${distinctPeriods[1]}.`
        : `The ${n} ${noun} cover different periods (${distinctPeriods.join(', ')}).`,
    );
  const inclusions = sides.map(inclusionsOf);
  for (const [i, own] of inclusions.entries())
    for (const inc of own) {
      const others = inclusions.filter((_, j) => j !== i);
      if (others.some((o) => o.some((x) => x.what.toLowerCase() === inc.what.toLowerCase()))) continue;
      const verb = inc.verb === 'including' ? 'includes' : inc.verb === 'excluding' ? 'excludes' : `is given ${inc.verb}`;
      parts.push(`Only one of the ${n} ${noun} says it ${verb} ${inc.what}.`);
    }
  const bases = sides.map(basisOf);
  const named = [...new Set(bases.filter((b): b is string => b !== null))];
  const naming = bases.filter((b) => b !== null).length;
  if (named.length === 1 && naming < sides.length)
    parts.push(
      naming === 1
        ? `Only one of them names its source: ${named[0]}.`
        : `${capitalise(NUMBER_WORDS[naming] ?? `${naming}`)} of them name their source: ${named[0]}.`,
    );
  else if (named.length > 1 && bases.every((b) => b !== null)) parts.push(`They rest on different sources: ${joinAnd(named)}.`);
  if (parts.length > 0) return parts.join(' ');
  if (!figured) {
    const onset = sides.map((s) => ONSET.exec(factClause(s)));
    if (onset.every((m) => m !== null)) {
      const clause = clauseOf(sides[0]!);
      return `The ${n} statements place the start${clause ? ` of ${lowerFirst(clause.subject)}` : ''} at different times.`;
    }
    const affirmative = sides.find((s) => negationCues(s).length === 0);
    if (affirmative && sides.some((s) => negationCues(s).length > 0))
      return sides.length === 2
        ? `One states that ${lowerFirst(factClause(affirmative))}; the other denies it.`
        : `They differ on whether ${lowerFirst(factClause(affirmative))}.`;
    return `The ${n} statements cannot both be true as they stand.`;
  }
  if (distinctPeriods.length === 1 && dated >= 2)
    return `${dated === sides.length ? `The ${n} figures cover` : 'The figures that give a period cover'} the same period (${distinctPeriods[0]}), so the period does not account for the difference between them.`;
  // The figures named, so two disputes closing alike still read as two sentences.
  const raw = sides.flatMap((s) => extractQuantities(factClause(s)).find((q) => !isTime(q))?.raw ?? []);
  if (raw.length === 2) return `Neither the ${raw[0]} nor the ${raw[1]} figure says over which period or on which basis it was measured.`;
  return raw.length > 2
    ? `None of the figures (${raw.join(', ')}) says over which period or on which basis it was measured.`
    : 'Neither figure says over which period or on which basis it was measured.';
}

const NUMBER_WORDS: Record<number, string> = { 2: 'two', 3: 'three', 4: 'four', 5: 'five' };

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The point in dispute as a reader would name it, from the subject of the sides' statements: "how far the water level
 * fell", "when the decline started", "whether irrigation withdrawals caused the decline". Never a figure or a side's
 * own position. Null when no statement parses.
 */
export function namePoint(sides: readonly string[], question?: string): string | null {
  const named = nameOf(sides, question);
  if (named === null) return null;
  // Never a figure or a date, which could be one side's: "when the canal opened in 2018" names "when the canal opened".
  const bare = named
    .replace(/\s+(?:in|on|at|by|from|to|since|between|of|for|during|before|after|until)\s+\S*\d\S*(?:\s+(?:and|to)\s+\S*\d\S*)?/gi, '')
    .replace(/\s+\S*\d\S*/g, '')
    .trim();
  return /\d/.test(bare) || bare.split(' ').length < 3 ? null : bare;
}

function nameOf(sides: readonly string[], question?: string): string | null {
  // The shortest statement names the point most plainly.
  const ordered = [...sides].sort((a, b) => factClause(a).length - factClause(b).length);
  const denied = sides.some((s) => negationCues(s).length > 0);
  const affirmative = ordered.find((s) => negationCues(s).length === 0);
  if (denied && affirmative && !sides.some((s) => extractQuantities(factClause(s)).some((q) => !isTime(q))))
    return `whether ${subjectText(factClause(affirmative), question)}`;
  for (const side of ordered) {
    const clause = clauseOf(side);
    if (!clause) continue;
    const subject = subjectText(clause.subject, question);
    const verb = clause.verb.toLowerCase();
    const aux = clause.aux ? `${clause.aux.toLowerCase()} ` : '';
    if (ONSET.test(verb) || clause.dated) return `when ${subject} ${aux}${verb}`;
    if (MOVES.has(verb)) return `how far ${subject} ${aux}${verb}`;
    if (COPULA.has(verb)) return `what ${subject} ${verb}`;
    // "has lost 27% of its surface area": what follows the figure says of what.
    const after = /^(?:[^ ]+ ){0,3}?(?:[^ ]*\d[^ ]*)(?: [a-z%³²]+)?\s+(of [^,;()]+)/.exec(clause.rest);
    if (after && /^of /.test(after[1]!)) return `how much ${after[1]!.trim()} ${subject} ${aux}${verb}`;
    return `how much ${subject} ${aux}${verb}`;
  }
  return null;
}

/** Content stems of the question without its setting's names ("Lake Varen"), which every point shares. */
function questionStems(question: string): Set<string> {
  return statementStems(question.replace(/(?<=\S\s+)\p{Lu}[\p{L}'’-]*/gu, ' '));
}

/**
 * The answer in brief, in our words, from the disputes the question asks about (a point sharing a word with the question
 * besides its names): the figures each side gives for a disputed quantity, and the points the sources are divided on;
 * at most three points, in the disputes' order. Null when no dispute is about the question (decision 0105).
 */
export function answerInBrief(disputes: readonly (readonly string[])[], question: string): string | null {
  const asked = questionStems(question);
  const figuresFor: string[] = [];
  const divided: string[] = [];
  for (const sides of disputes) {
    if (figuresFor.length + divided.length >= 3) break;
    const point = namePoint(sides, question);
    if (point === null || ![...statementStems(point)].some((t) => asked.has(t))) continue;
    const raw = [...new Set(sides.flatMap((s) => extractQuantities(factClause(s)).find((q) => !isTime(q))?.raw ?? []))];
    if (raw.length >= 2) figuresFor.push(`${joinAnd(raw)} for ${point}`);
    else divided.push(point);
  }
  const parts = [
    ...(figuresFor.length > 0 ? [`the sources give ${figuresFor.join('; ')}`] : []),
    ...(divided.length > 0 ? [`${figuresFor.length > 0 ? 'they' : 'the sources'} are divided on ${joinAnd(divided)}`] : []),
  ];
  return parts.length === 0 ? null : `In brief, ${parts.join('; ')}.`;
}

import { withoutSidePointer } from './back-reference';
import { isBoilerplate } from './boilerplate';
import { isCode } from './code-text';
import { STOPWORDS } from './tokens';

/*
 * What a reader should never see quoted as a finding (issue 25, docs/decisions/0045, 0046): a source sentence that is
 * about the document rather than the subject (boilerplate), or that does not stand on its own (a fragment). Pure
 * detectors over one sentence, shared by the source filters of the offline engine (evidence, report sentences) and by
 * the report lint of `dossier eval`, so what the lint counts is what the filters remove.
 */

export type BoilerplateKind = 'self-description' | 'byline' | 'self-citation' | 'contact' | 'navigation' | 'marketing' | 'pointer';
export type FragmentKind = 'lead-in' | 'cut-off' | 'citation-needed' | 'orphan-item' | 'code' | 'dangling-reference';
export type ProseFaultKind = BoilerplateKind | FragmentKind | 'markup';

export interface ProseFault {
  group: 'boilerplate' | 'fragment' | 'leaked';
  kind: ProseFaultKind;
  why: string;
}

const DOC =
  '(?:note|report|document|page|paper|article|timeline|section|chapter|guide|manual|summary|brief|briefing|study|review|submission|bulletin|release|fact ?sheet|overview|memo|tutorial|appendix|leaflet|booklet|website|site|book|entry|faq|handbook)';

const SELF_DESCRIPTION: readonly RegExp[] = [
  // "This note explains how …", "This timeline collects …", "This report presents the authority's water balance …".
  new RegExp(
    String.raw`^(?:this|the present|the following|our)\s+(?:\w+\s+){0,2}?${DOC}\s+(?:\w+\s+)?(?:explains?|describes?|presents?|collects?|summari[sz]es|sets out|outlines?|provides?|gives|covers|contains|lists|documents|reviews|introduces|discusses|shows how|walks|is (?:meant|intended|designed|organi[sz]ed|structured|divided|written|aimed|based|part)|was (?:written|prepared|produced|compiled)|aims?)\b`,
    'i',
  ),
  // "It is meant as a reference for readers …", "It is intended for …".
  /^(?:it|this|they) (?:is|are) (?:meant|intended|designed|written) (?:as|for|to)\b/i,
  /\b(?:is|are) meant as a (?:reference|guide|summary|introduction)\b/i,
  // "Our task is to review all available evidence …", "The purpose of this note is …".
  /^(?:our|my) (?:task|aim|purpose|goal|remit|brief|mandate) (?:here |in this \w+ )?(?:is|was) to\b/i,
  new RegExp(String.raw`^the (?:purpose|aim|goal|scope) of this ${DOC} (?:is|was)\b`, 'i'),
  // "In this note we …", "This chapter is organised as follows".
  new RegExp(String.raw`^in this ${DOC}\b`, 'i'),
  /\b(?:is|are) organi[sz]ed as follows\b|^the rest of this (?:\w+ )?(?:note|paper|report|chapter|section|document)\b/i,
  // A document's publication line, its publisher first: "Brennmoor Hydro Ltd. Public summary prepared for the Independent
  // Review Panel on Lake Varen, 10 February 2025." It ends on its date, with no statement of its own ("A summary prepared
  // for the panel found …" is one).
  new RegExp(
    String.raw`^(?:[\p{Lu}][\p{L}&.'-]*\s+){0,6}?(?:\p{L}+\s+)?${DOC}\s+(?:prepared|submitted|issued|written|compiled|produced|published)\s+(?:for|to|by|on behalf of)\s+[^.;:]*,\s*(?:\d{1,2}\s+)?(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+)?\d{4}\.?$`,
    'iu',
  ),
];

const CONTACT =
  /\b(?:bug reports?|report (?:a |any )?(?:bugs?|problems?|issues?)|mailing lists?|e-?mail (?:us|them|the|your)|contact (?:us|the (?:authors?|maintainers?|editors?|press office))|send (?:your |any )?(?:comments|questions|feedback|patches|corrections)|issue tracker|bug tracker|press (?:office|enquiries|contact)|media (?:enquiries|contact)|please (?:write|report|send|contact|let us know))\b|[\w.+-]+@[\w-]+\.[\w.]+/i;

// Marketing and press-release announcements ("VARENBY — The authority today announced that its programme …").
const MARKETING =
  /^\W*[A-Z][A-Z' -]{2,}\W*\s+[—–-]\s+.{0,160}\b(?:today|has|have|proudly) announced\b|\bwelcome to\b|\b(?:book (?:now|your|a)|visit us|don'?t miss|unforgettable|breathtaking|crystal[- ]clear|world[- ]class|best[- ]in[- ]class|sign up (?:today|now)|buy now|limited[- ]time offer|enterprise[- ]grade|award[- ]winning|try it (?:free|today)|get started (?:today|now|for free))\b/i;

// A line naming a work with its number: "Working Paper 23-07, revision 2 (March 2025)", "Technical Report TR-2024-09".
const WORK_NUMBER =
  /\b(?:working paper|technical (?:report|note)|discussion paper|report|paper|bulletin|circular|revision|version|vol\.?|volume|no\.|issue|edition|series|doi)\s*:?\s*[A-Z]{0,4}-?\d[\w./-]*/i;
const ORG_WORD =
  /\b(?:authority|university|group|section|department|division|unit|office|institute|centre|center|school|faculty|laboratory|lab|ministry|agency|association|society|council|committee|trust|foundation|team|bureau|service|panel|hydrometry|press)\b/i;

/** Words of a sentence that carry letters, as written. */
function wordsOf(s: string): string[] {
  return s.split(/\s+/).filter((w) => /\p{L}/u.test(w));
}

/** Share of a text's words written as names (capitalised, all capitals) rather than as prose. */
function nameShare(s: string): number {
  const words = wordsOf(s).filter((w) => !/^(?:of|for|and|the|de|du|der|von|van|in|on|at|&)$/i.test(w.replace(/[^\p{L}&]/gu, '')));
  if (words.length === 0) return 0;
  return words.filter((w) => /^[("'“‘]?\p{Lu}/u.test(w)).length / words.length;
}

/** Whether the words after a line's "By" are a person's or an organisation's name (and affiliation), nothing else. */
function byName(rest: string): boolean {
  const words = wordsOf(rest);
  const first = words[0]?.replace(/[^\p{L}]/gu, '') ?? '';
  if (
    !/^\p{Lu}/u.test(words[0] ?? '') ||
    /^(?:default|far|now|then|contrast|comparison|design|definition|itself|themselves|hand|law|means|way|chance|mistake|accident)$/i.test(
      first,
    )
  )
    return false;
  return (
    nameShare(rest) >= 0.75 &&
    words.filter((w) => /^\p{Ll}/u.test(w) && !/^(?:of|for|and|the|de|du|der|von|van|in|on|at)$/.test(w)).length === 0
  );
}

/** Two names joined by a phrase of partnership and nothing else: "<name>, in cooperation with <name>." */
const PARTNERS =
  /^([^,;:]+),?\s+(?:in (?:co-?operation|collaboration|partnership|association) with|on behalf of|with (?:the )?(?:support|funding) (?:of|from)|commissioned by|funded by)\s+([^,;:]+?)\.?$/i;

/** A line that is a name, an affiliation or a reference rather than a statement: no verb, nearly every word a name. */
function citationLine(s: string): 'byline' | 'self-citation' | null {
  const words = wordsOf(s);
  if (words.length === 0 || words.length > 18) return null;
  if (/^(?:author(?:s|ed by)?|written by|edited by|prepared by|compiled by)\b[:\s]/i.test(s)) return 'byline';
  // "By Anna Lind, Kessmark Regional Water Authority": "By" and a name. "By the autumn …", "By default, …", "By 2015 …" open
  // a statement (decision 0132: the old rule took any line opening with "by" for a byline).
  if (/^by\s/i.test(s)) return byName(s.replace(/^by\s+(?:the\s+)?/i, '')) ? 'byline' : null;
  // "Varen Lake Trust, in cooperation with the Varenby Anglers' Club.": two names joined by a phrase of partnership, the
  // line under a report's title (decision 0166).
  const joined = PARTNERS.exec(s);
  if (joined && nameShare(joined[1]!) >= 0.75 && nameShare(joined[2]!) >= 0.75) return 'byline';
  if (nameShare(s) < 0.75) return null;
  // A sentence with a lower-case verb form between its names is a statement ("The Authority publishes …").
  const lower = words.filter(
    (w) => /^\p{Ll}/u.test(w) && !/^(?:of|for|and|the|de|du|in|on|at|revision|version|edition|vol\.?|no\.)$/i.test(w),
  );
  if (lower.length > 1) return null;
  if (WORK_NUMBER.test(s)) return 'self-citation';
  if (ORG_WORD.test(s) && (/,/.test(s) || words.length <= 8)) return 'byline';
  return null;
}

/**
 * A pointer to something the quoted sentence does not show: numbered items, points or steps of a list ("Estimates that
 * add items 1–4 to the metered volume …"), a figure, table or equation by its number. "Described below" is not counted: the sentence's own statement stands
 * without what it points at (documentation says it often). A parenthetical
 * pointer ("(Figure 2)", "(see Table 3)") is an aside, so the sentence stands without it (decision 0105).
 */
const DANGLING_REFERENCE =
  /\b(?:items?|points?)\s+(?:\(?[ivx]{1,4}\)?|\d{1,2})(?:\s*(?:[–-]|to|and)\s*(?:\(?[ivx]{1,4}\)?|\d{1,2}))?(?![\d.,%])(?!\s*(?:m|km|per|million|percent)\b)|\b(?:figure|fig\.|table|equation|eq\.|chart|diagram|box)\s+\d+[a-z]?\b/i;

/**
 * A pointer to another work or part of one, outside brackets: "…; see Technical Note TN-11 for how area is calculated
 * from level.", "For details, see Section 4.", "Refer to Appendix B." The sentence sends the reader elsewhere, and a
 * finding does not (decision 0112). A bracketed pointer ("(see Table 3)") is an aside (decision 0105); "see" as a verb
 * of the subject ("Residents see the lake fall") is not followed by a named work.
 */
const POINTER =
  /(?:^|[;:,\u2014\u2013]\s*|\b[Ff]or (?:details|more(?:\s+\w+)?|further\s+\w+|how\b[^,;]*)\s*,?\s*)(?:[Pp]lease\s+)?(?:[Ss]ee|[Rr]efer to|[Cc]onsult)\s+(?:also\s+)?(?:the\s+)?(?:\p{Lu}|(?:section|chapter|appendix|annex|page|below|above)\b)/u;

// A sentence ends with a full stop, question or exclamation mark or an ellipsis, then closing quotes or brackets.
const CLOSED = /[.!?\u2026]["'\u201d\u2019)\]]*$/;

/** The Wikipedia-style maintenance markers: the source's own editors flagging a statement as unsupported or unsure. */
const MAINTENANCE = String.raw`\[(?:citation needed|clarification needed|verification needed|according to whom\??|by whom\??|dubious(?: [–-] discuss)?|not in citation given|failed verification|original research\??|needs update)\]`;

/**
 * A maintenance marker in a source sentence ("disputed.[citation needed]"). Its own source does not stand behind such a
 * sentence, so it is no finding: it is neither evidence nor a sentence of the report (decision 0165; 0046 had shown it
 * without its marker, while the evidence under it still read "[citation needed]").
 */
export const MAINTENANCE_MARKER = new RegExp(MAINTENANCE, 'i');

/**
 * Wikipedia-style maintenance and citation markers inside quoted text: a maintenance marker anywhere; a numbered note
 * ("[5]", "[note 2]") only after punctuation or a year, so an index in code ("items[0]") is not one.
 */
export const CITATION_MARKER = new RegExp(
  String.raw`${MAINTENANCE}|(?<=[.,;:)"\u201d\u2019]|\b\d{4})(?:\[(?:\d{1,3}|note \d{1,3})\])+`,
  'gi',
);

/**
 * A real HTML element's tag (not a manual's placeholder such as "git reset <commit>" or "<path>"). A source sentence
 * holding one (Node's "run all `<script>` tags", its backquotes gone with the Markdown) would show as markup in the
 * report, and raw in its Markdown (decision 0108); the report lint counts it as leaked with this same pattern.
 */
export const HTML_ELEMENT =
  /<\/?(?:a|b|i|u|em|strong|p|div|span|br|hr|img|script|style|ul|ol|li|table|thead|tbody|tr|td|th|code|pre|h[1-6]|sup|sub|small|font|section|article|nav|header|footer)(?:\s[^>]*)?\/?>/i;

/**
 * A sentence cut at a bracket (decision 0132): it closes a bracket it never opened ("RuntimeError), this exception class
 * is raised …"), or opens on a bracketed aside that the words after it continue ("(the default) and timeout is None …",
 * "(also called light-weight processes or tasks) --- multiple threads …"): the start of the sentence is missing. Code
 * spans and quoted strings are not read ("`a)`", "'x]'"); an enumerator ("do this 1) …", "a) …") and a half-open range
 * ("[0, 1)") close what is theirs.
 */
function cutAtBracket(s: string): string | null {
  if (/^[([][^()[\]]*[)\]]\s*(?:\p{Ll}|[,;:\u2014\u2013]|-{1,3}\s)/u.test(s))
    return 'it opens on a bracketed aside that continues a sentence it was cut from';
  const plain = s
    .replace(/`[^`]*`/g, ' ')
    .replace(/"[^"]*"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019/g, ' ')
    .replace(/(?<!\p{L})'[^'\n]*'(?!\p{L})/gu, ' ')
    .replace(/(?:^|\s)\(?(?:\d{1,2}|[a-hA-H]|[ivx]{1,4})\)(?=[\s,;.:]|$)/g, ' ')
    .replace(/[:;]-?[)\]]/g, ' ');
  let depth = 0;
  for (const ch of plain) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') {
      if (depth === 0) return 'it closes a bracket it never opened: its start was cut off';
      depth--;
    }
  }
  return null;
}

/**
 * reStructuredText markup a reader should not see (Python-style documentation ingested as plain text, or a literal the
 * conversion of 0100 did not reach): a role (":func:`run`"), a double-backquoted literal ("``text=True``"), a directive
 * (".. note::"). The report lint counts it as leaked with this same pattern (decision 0132, one detector).
 */
export const REST_MARKUP =
  /:(?:[a-z]+:)?(?:func|class|meth|mod|ref|exc|data|attr|const|term|envvar|option|doc|pep|rfc|program|file|samp|kbd|abbr|keyword|ttag|dfn|menuselection|source|mimetype|makevar|token|c:func|c:type|c:macro):`|``[^`]+``|(?:^|\s)\.\. [a-z][\w-]*(?::[\w-]+)?::(?:\s|$)/;

/** Why a quoted source sentence is not a finding a reader should see, or null. */
export function proseFault(sentence: string): ProseFault | null {
  const s = sentence.replace(/\s+/g, ' ').trim();
  if (s.length === 0) return { group: 'fragment', kind: 'cut-off', why: 'it is empty' };
  if (isCode(s)) return { group: 'fragment', kind: 'code', why: 'it is program text, not prose' };
  if (HTML_ELEMENT.test(s)) return { group: 'leaked', kind: 'markup', why: 'it holds an HTML tag, which would read as markup' };
  if (REST_MARKUP.test(s)) return { group: 'leaked', kind: 'markup', why: 'it holds reStructuredText markup' };
  if (MAINTENANCE_MARKER.test(s)) return { group: 'fragment', kind: 'citation-needed', why: 'it carries a "[citation needed]" marker' };
  if (SELF_DESCRIPTION.some((p) => p.test(s)))
    return { group: 'boilerplate', kind: 'self-description', why: 'it describes the document, not the subject' };
  if (CONTACT.test(s)) return { group: 'boilerplate', kind: 'contact', why: 'it is a contact, bug-report or mailing-list line' };
  if (MARKETING.test(s)) return { group: 'boilerplate', kind: 'marketing', why: 'it is marketing' };
  const line = citationLine(s);
  if (line === 'byline') return { group: 'boilerplate', kind: 'byline', why: 'it is a byline or an affiliation' };
  if (line === 'self-citation') return { group: 'boilerplate', kind: 'self-citation', why: 'it is a reference to a work, not a statement' };
  if (isBoilerplate(s)) return { group: 'boilerplate', kind: 'navigation', why: 'it is page furniture (navigation, notices, pointers)' };
  if (POINTER.test(s.replace(/\([^()]*\)/g, ' ')))
    return { group: 'boilerplate', kind: 'pointer', why: 'it sends the reader to another work or part of one' };
  if (/:["'\u201d\u2019)\]]*$/.test(s))
    return { group: 'fragment', kind: 'lead-in', why: 'it is a lead-in ending in ":" without its list' };
  // An item without its lead-in: opens in lower case on a function word, or on a list marker, or ends like a list item.
  const first = s.split(' ')[0]!.replace(/[^\p{L}]/gu, '');
  if (/^\p{Ll}/u.test(s) && STOPWORDS.has(first.toLowerCase()))
    return { group: 'fragment', kind: 'orphan-item', why: 'it continues a sentence it was cut from' };
  if (/^(?:\(?(?:[ivx]{1,4}|[a-h]|\d{1,2})\)|[-–•*]\s)/.test(s) || /[;,]["'\u201d\u2019)\]]*$/.test(s))
    return { group: 'fragment', kind: 'orphan-item', why: 'it is a list item without its lead-in' };
  const cut = cutAtBracket(s);
  if (cut) return { group: 'fragment', kind: 'cut-off', why: cut };
  if (DANGLING_REFERENCE.test(s.replace(/\([^()]*\)/g, ' ')))
    return { group: 'fragment', kind: 'dangling-reference', why: 'it points at a list, figure or table the reader does not see' };
  if (!CLOSED.test(s.replace(CITATION_MARKER, '').trim()))
    return { group: 'fragment', kind: 'cut-off', why: 'it is cut off (no closing punctuation)' };
  if (wordsOf(s).length < 3) return { group: 'fragment', kind: 'cut-off', why: 'it is too short to be a sentence' };
  return null;
}

/**
 * The sentence as a reader sees it: citation and maintenance markers that were part of the quoted text
 * ("disputed.[citation needed]", "began in 2015[5]") taken out. The evidence keeps the excerpt verbatim.
 */
export function withoutCitationMarkers(sentence: string): string {
  return sentence
    .replace(CITATION_MARKER, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * A source sentence as a reader may see it in a report (decision 0046): its numbered notes taken out, or null when it
 * is boilerplate or a fragment, or when its source flags it with a maintenance marker (0165). Every offline path from
 * an excerpt to a report sentence goes through this.
 */
export function readerSentence(sentence: string): string | null {
  if (MAINTENANCE_MARKER.test(sentence)) return null;
  const marked = withoutCitationMarkers(sentence);
  // "On this basis the number of licences fell …": the statement after a side pointer, which may stand anywhere (0136).
  const shown = datedEntry(withoutSidePointer(marked) ?? marked);
  if (proseFault(shown) === null) return shown;
  // The last sentence of a bracketed passage ("… use git rebase instead).", "… the __len__ methods.)") closes the bracket
  // its first sentence opened: shown without that bracket, it is whole (decision 0132).
  // Only that bracket goes: an ellipsis is not doubled punctuation ("(Licence BH-07,..." read as "BH-07,.." passed as a
  // sentence; 0165).
  const unbracketed = shown.replace(/^([^()]*?)\)([.!?]?)$/, '$1$2');
  const closed = unbracketed.replace(/([.!?])\1$/, '$1');
  return unbracketed !== shown && proseFault(closed) === null ? closed : null;
}

const MONTH = String.raw`(?:January|February|March|April|May|June|July|August|September|October|November|December)`;
const SEASON = String.raw`(?:Spring|Summer|Autumn|Fall|Winter|Early|Mid|Late)`;
const PART = String.raw`(?:${MONTH}|${SEASON})`;
/** A timeline's date before its dash: "14 February 2025", "March 12, 2016", "Autumn 2014", "April or October 2016", "2016–17". */
const ENTRY_DATE = new RegExp(
  String.raw`^((?:\d{1,2}\s+${MONTH}\s+\d{4}|${MONTH}\s+\d{1,2},\s+\d{4}|${PART}(?:\s*(?:[–-]|or|and|to)\s*${PART})?[- ]\d{4}(?:[–-]\d{2,4})?|\d{4}(?:[–-]\d{2,4})?))\s*[—–]\s+(\p{Lu}.*[.!?])$`,
  'su',
);

/**
 * A timeline's entry ("14 February 2025 — The KRWA's Annual Water Resources Report states a 4.2-metre fall …") as a
 * sentence of a report: the statement, with its date after it in brackets ("… in the annual mean level (14 February
 * 2025)."), or without it when the statement names it already ("2015 — … the drawdown began in 2015."). The date-dash
 * form is a chronology's and stood in a report's paragraph as a line of a list (decision 0138); 0102's "On 14 February
 * 2025, the KRWA's report states …" put the chronology's present tense after a past date (0105), which a date in
 * brackets after the statement does not. The words and their order are the source's.
 */
export function datedEntry(sentence: string): string {
  const m = ENTRY_DATE.exec(sentence.trim());
  if (!m) return sentence;
  const date = m[1]!.replace(new RegExp(`^${SEASON}\\b`), (w) => w.toLowerCase());
  const rest = m[2]!;
  if (rest.includes(m[1]!)) return rest;
  return rest.replace(/([.!?])$/, ` (${date})$1`);
}

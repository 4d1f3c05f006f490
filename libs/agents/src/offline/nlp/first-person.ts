import { pointsBack } from './back-reference';
import { splitUnits } from './sentences';

/*
 * A source's sentence in the first person ("We believe …", "Our balance model attributes …", "our headline figure") is
 * its author's view; quoted alone in a report it reads as the report's own finding (issue 25, decision 0102). The
 * offline engine attributes it to its source in our words ("The growers' association believes …") when the source
 * says who wrote it, and leaves it out otherwise. Pure functions over text: no I/O.
 */

/** Words of an organisation that ends its name ("… Growers' Association", "… Hydrology Group"). */
const ORG_WORDS =
  'Authority|University|Group|Department|Brigade|Association|Trust|Panel|Office|Council|Club|Institute|Ministry|Agency|Committee|Society|Foundation|Bureau|Commission|Federation|Union|Board|Service|Survey|Laboratory|Laboratories|Centre|Center';
const ORG_NAME = new RegExp(String.raw`((?:\p{Lu}[\p{L}'’.-]*\s+){0,5})(${ORG_WORDS})\b`, 'gu');
/** A company's name in a byline ("Hesker Cell Industries, Korva — 9 June 2025", "Brennmoor Hydro Ltd., Corporate …"). */
const COMPANY_LINE = /^(?:\p{Lu}[\p{L}'’&-]*\s+){1,4}(?:Industries|Ltd|Limited|Inc|Corporation|Corp|Company|ASA|AB|AG|GmbH|plc|LLC)\b/u;
/** Before a name that is not who writes: "Submission to the … Review Panel", "in cooperation with the … Office". */
const NOT_AUTHOR_BEFORE = /\b(?:to|for|with|against|about|on|at|into|than)\s+(?:the\s+)?$/i;

/**
 * Who wrote a document, in our words and in lower case ("the growers' association", "the water authority", "the
 * hydrology group", "the company"): the organisation its title or byline names (the first units of the text), as its
 * kind with the word before it when that word is not the name's first ("Tessel Plain Growers' Association" → "the
 * growers' association", "Eskerford University" → "the university"). Lower case, so the guard reads no name in it. Null
 * when the opening lines name no organisation (a person's blog, a news story, an interview).
 *
 * Only a name that writes counts (decision 0168): not one the title addresses ("Submission to the Independent Review
 * Panel"), works with ("in cooperation with the National Product Safety Office") or whose work is read ("Hesker Cell
 * Industries has read the National Product Safety Office's report"), and in the first sentence after the byline only
 * its subject. Hesker's "In our view, the overheating was caused by the pack's firmware" read "In the safety office's
 * view …": the opposite party's.
 */
export function documentVoice(text: string): string | null {
  const opening = splitUnits(text.slice(0, 1200))
    .slice(0, 3)
    .map((u) => u.text.replace(/\s+/g, ' '))
    .join(' \n ');
  for (const [index, raw] of opening.split(' \n ').entries()) {
    // A masthead in capitals ("BRANNHOLM FIRE AND RESCUE SERVICE") read as the name it is.
    const line = raw.replace(/\b(\p{Lu})(\p{Lu}+)\b/gu, (_, a: string, b: string) => a + b.toLowerCase());
    for (const m of line.matchAll(ORG_NAME)) {
      const at = m.index;
      if (NOT_AUTHOR_BEFORE.test(line.slice(0, at)) || /^['’]s?\b/.test(line.slice(at + m[0].length))) continue;
      if (index >= 2 && !/^(?:the\s+)?$/i.test(line.slice(0, at))) continue;
      const before = (m[1] ?? '').trim().split(/\s+/).filter(Boolean);
      const kind = m[2]!.toLowerCase();
      // The word before the kind, when it is not the name's own first word ("Eskerford"): "water", "growers'", "review".
      const qualifier = before.length >= 2 ? before[before.length - 1]!.replace(/[.]+$/, '') : '';
      const phrase =
        qualifier && /^\p{Lu}\p{Ll}/u.test(qualifier) && !/['’]s$/.test(qualifier) ? `${qualifier.toLowerCase()} ${kind}` : kind;
      return `the ${phrase}`;
    }
    if (index < 2 && COMPANY_LINE.test(raw.replace(/^[*_#\s]+/, ''))) return 'the company';
  }
  return null;
}

const FIRST_PERSON = /\b(?:we|our|ours|us|ourselves|my|me|mine|myself)\b|(?:^|[\s("“])I(?=[\s'’])/i;
const FIRST_PERSON_SINGULAR = /\b(?:my|me|mine|myself)\b|(?:^|[\s("“])I(?=[\s'’])/;

/** Whether a sentence speaks in the first person ("we", "our", "I"; "US" and "Part I" are not). */
export function isFirstPerson(sentence: string): boolean {
  const s = sentence.replace(/\bUS\b/g, '').replace(/\b(?:Part|Phase|Stage|Annex|Appendix|Chapter|World War) I\b/g, '');
  return FIRST_PERSON.test(s.replace(/\(I\)/g, ''));
}

const MODALS = new Set(['can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'shall']);
const IRREGULAR = new Map([
  ['are', 'is'],
  ['were', 'was'],
  ['have', 'has'],
  ['do', 'does'],
  ["'re", ' is'],
  ["'ve", ' has'],
]);
const PAST = new Set(
  'found built made took drew saw ran met gave got chose thought held kept left brought led put began wrote grew knew set read went came became sent spent paid told said heard meant'.split(
    ' ',
  ),
);
const ADVERBS = new Set([
  'also',
  'then',
  'now',
  'only',
  'still',
  'therefore',
  'further',
  'first',
  'thus',
  'again',
  'already',
  'jointly',
  'independently',
]);

/**
 * A verb after "we" as it reads after a third-person singular subject ("believe" → "believes", "are" → "is"), and a
 * second verb coordinated with it ("construct … and attribute the decline" → "… and attributes the decline").
 */
function agree(rest: string): string {
  const first = agreeFirst(rest);
  if (first === rest) return rest;
  return first.replace(/\b(and|or) (\p{Ll}+)(?= (?:the|a|an|its|their|this|these|that)\b)/u, (whole, conj: string, verb: string) =>
    /(?:s|ed)$/.test(verb) || PAST.has(verb) || MODALS.has(verb) ? whole : `${conj} ${agreeFirst(verb)}`,
  );
}

function agreeFirst(rest: string): string {
  const words = rest.split(' ');
  let i = 0;
  while (i < words.length - 1 && ADVERBS.has(words[i]!.toLowerCase())) i++;
  const w = words[i] ?? '';
  const bare = w.replace(/[^\p{L}']/gu, '');
  const lower = bare.toLowerCase();
  let verb: string;
  if (IRREGULAR.has(lower)) verb = IRREGULAR.get(lower)!;
  else if (MODALS.has(lower) || PAST.has(lower) || /ed$/.test(lower) || !/^\p{Ll}+$/u.test(bare)) verb = bare;
  else if (/(?:s|x|z|ch|sh|o)$/.test(lower)) verb = `${bare}es`;
  else if (/[^aeiou]y$/.test(lower)) verb = `${bare.slice(0, -1)}ies`;
  else verb = `${bare}s`;
  words[i] = w.replace(bare, verb);
  return words.join(' ');
}

// A sentence whose reported clause opens on a word that refers back ("We believe these two factors …") needs the
// sentence before it, which a quote of it alone does not have.
const ANAPHORIC_CLAUSE = /^(?:We|I) (?:\w+ ){1,2}?(?:that )?(?:these|those|this|it|they|such|both)\b/;

/**
 * A first-person sentence in our words, attributed to its source ("We find that X" → "The hydrology group finds that
 * X", "Our balance model …" → "The water authority's balance model …"), or null when it cannot be: the source names
 * no organisation, the sentence speaks as one person ("I", "my"), or what it reports refers to a sentence before it. A
 * sentence not in the first person is returned as it is.
 */
export function attributed(sentence: string, voice: string | null | undefined): string | null {
  // A transcript's line is its speaker's words whatever its person: "HARTVIK: It takes time to find the cause …" showed
  // the transcript's label to the reader (decision 0168).
  const spoken = spokenLine(sentence);
  // A line that answers the one before it ("HARTVIK: Which is exactly what the firmware update addresses.") says nothing
  // quoted alone, in quotation marks or not.
  if (spoken === REPLY) return null;
  if (spoken) return spoken;
  // A first person inside quotation marks is the quoted speaker's ("“The safety of our riders comes first, always,” said
  // Lena Hartvik"): rewritten, it became "the safety office's riders", inside her quotation (velora-recall q03; 0168).
  if (!isFirstPerson(sentence.replace(/“[^”]*”|"[^"]*"/g, ' '))) return sentence;
  if (!voice || FIRST_PERSON_SINGULAR.test(sentence) || /\b(?:us|ours|ourselves)\b/i.test(sentence)) return null;
  if (ANAPHORIC_CLAUSE.test(sentence)) return null;
  const owner = /s$/.test(voice) ? `${voice}'` : `${voice}'s`;
  const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
  let out = sentence
    .replace(/^We're\s+/, 'We are ')
    .replace(/^We've\s+/, 'We have ')
    .replace(/^We\s+(.*)$/s, (_, rest: string) => `${capital(voice)} ${agree(rest)}`)
    .replace(/^Our\s+/, `${capital(owner)} `);
  // After the first mention, "it" and "its": "(i) it includes canal losses …; (ii) its rainfall series …".
  let named = out !== sentence;
  out = out.replace(/([^\p{L}])(we|our)\s+([^.;:!?]*)/gu, (_, before: string, word: string, rest: string) => {
    const subject = word === 'we' ? (named ? 'it' : voice) : named ? 'its' : owner;
    named = true;
    return `${before}${subject} ${word === 'we' ? agree(rest) : rest}`;
  });
  // Anything first-person left (a "We" inside quotes, an odd form) cannot be rewritten safely.
  return isFirstPerson(out) ? null : out;
}

/*
 * A transcript's line names its speaker ("HARTVIK: We first received a report …"): "we" there is the speaker's side,
 * which no rewriting into the third person can name safely, so the line is quoted as the speaker's words and attributed
 * ("Hartvik said: “We first received a report …”", 0102), and so is a line in the third person (0168). A label is a
 * name in capitals, one to three words; a note's or a warning's label is not a speaker.
 */
const SPEAKER_LINE = /^(\p{Lu}[\p{Lu}'’-]+(?: \p{Lu}[\p{Lu}'’-]+){0,2}):\s+(\S[\s\S]*)$/u;
const NOT_SPEAKERS = new Set(
  'note notes warning caution tip tips important danger todo fixme update edit summary example examples see q a answer question faq ps nb re fyi'.split(
    ' ',
  ),
);

/** What `spokenLine` answers for a speaker's line that leans on the line before it. */
const REPLY = Symbol('reply');
/** How a reply opens: a relative or a conjunction carrying on from the other speaker's line. */
const REPLY_OPENER = /^(?:which|who|whom|whose|where|and|but|or|so|because|exactly|indeed|right|yes|no)\b/i;

function spokenLine(sentence: string): string | typeof REPLY | null {
  const m = SPEAKER_LINE.exec(sentence.trim());
  if (!m) return null;
  const label = m[1]!;
  if (NOT_SPEAKERS.has(label.toLowerCase()) || label.length < 3) return null;
  const name = label.toLowerCase().replace(/(^|[\s'’-])(\p{Ll})/gu, (_, before: string, c: string) => before + c.toUpperCase());
  const words = m[2]!.trim().replace(/["“”]/g, '');
  if (REPLY_OPENER.test(words) || pointsBack(words) !== null) return REPLY;
  return `${name} said: “${words}”`;
}

const METHOD_VERB =
  /^(?:we|our \w+|the (?:[\p{Ll}']+ ){0,2}[\p{Ll}']+)\s+(?:(?:first|then|also)\s+)?(?:construct|build|built|combine|use|collect|compile|install|develop|calculat|comput|deriv|assembl|adopt)\w*\b/iu;

/**
 * A source saying how it worked ("We construct a monthly water balance …", "The hydrology group combined three
 * records …"): context for a finding, never a main finding of the report's introduction (decision 0102).
 */
export function isMethodStatement(sentence: string): boolean {
  return METHOD_VERB.test(sentence.trim());
}

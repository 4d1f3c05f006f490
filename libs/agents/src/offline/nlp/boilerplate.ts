/*
 * Sentences that are part of a page's furniture rather than its content: navigation, cookie and legal notices,
 * command-line hints that belong to another tool, "see also" pointers, bylines and publication lines, running heads of
 * extracted PDFs. They match the question's words often enough (a manual repeats its tool names on every page) that
 * relevance alone lets them in, so the offline engine never selects them as evidence or report sentences.
 * The list of phrasings they take is in test/unit/nlp/boilerplate.spec.ts.
 */

const PATTERNS: readonly RegExp[] = [
  // Site furniture and legal text.
  /\b(?:cookies?|subscribe|subscription|newsletter|copyright|all rights reserved|privacy policy|terms of (?:use|service)|sign (?:up|in)|log ?in|click here|advertisement|share this|follow us|javascript|accept all|skip to (?:main )?content)\b|©/i,
  /\b(?:licensed under|permission is (?:hereby )?granted|without warranty|warranties of merchantability|trademarks? of)\b/i,
  // Navigation: "Prev Up Next", "Home > Docs > …", "Table of Contents", "Back to top", "Edit this page".
  /^(?:prev(?:ious)?|home)\b.{0,80}\bnext\b/i,
  /^(?:[^>»›.]{1,40}\s(?:>|»|›)\s){2,}[^>»›]{1,80}$/,
  /\b(?:table of contents|back to top|edit this page|jump to navigation|breadcrumb|main menu|previous page|next page)\b/i,
  // "See also …" pointers and cross-references that only name other pages.
  /^\(?see (?:also|section|chapter|the (?:\w+ )?(?:section|chapter|page|documentation|reference))\b/i,
  /^for (?:more|further) (?:information|details)\b.*\b(?:see|refer to|consult)\b/i,
  // Command-line hints that tell the reader how to run some program: "(You may also need -h, -p, and/or -U options…)".
  /\byou may (?:also )?need (?:the )?-\w/i,
  // A list of options is a hint only when the sentence tells the reader to use them ("Use -v, --verbose, or -q …"): a
  // manual's own sentence naming its options ("Tag objects (created with -a, -s, or -u) are called "annotated" tags; …",
  // git-manual's q12) is its content.
  /^\(?\s*(?:use|pass|add|try|give|specify|run|you)\b.*(?:^|[\s(,])-{1,2}[a-z][\w-]*,\s*-{1,2}[a-z][\w-]*,?\s*(?:and|or|and\/or)\s*-{1,2}[a-z]/i,
  // Bylines, publication and bulletin lines, photo credits.
  /^(?:published|posted|updated|last (?:updated|modified)|written|photo(?:graph)?|image|illustration)(?: on)?\s*(?:\d|by\b|:|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)/i,
  /^[A-Z][\w&' -]{2,80},\s*(?:bulletin|report|note|paper|press release|working paper)\s+no\.?\s*[\w/.-]+\.?$/i,
  /^this (?:article|story|page|post) (?:is based on|was (?:first )?published|first appeared|was updated)\b/i,
  // A page saying what it is: "This page reports how many recalled products have been returned." (velora-recall q09).
  // What the page reports is a report's finding; that it reports it is the page's furniture (decision 0168).
  /^this (?:web ?page|page|site|website|faq) (?:reports|lists|shows|describes|explains|gives|provides|summari[sz]es|contains|sets out|answers|tells you|collects)\b/i,
  // A title cut off by the extractor ("Irrigation, Climate and Regulation in the Decline of Lake...", a running header
  // "Brennmoor Dam: Summary of Operating Rules (Licence BH-07,...").
  /[\w,](?:\.\.\.|…)$/,
  // A test report's notices: "This report shall not be reproduced except in full without the written approval of the
  // laboratory.", "The results relate only to the items tested." (velora-recall's test report; decision 0169).
  /\b(?:shall|may|must) not be reproduced\b|^the (?:test )?results (?:relate|apply) only to the (?:items?|samples?|objects?) tested\b/i,
  // A reference list's entry that opens with its address ("https://csrc.nist.gov/… The FIPS 180-2 publication on Secure
  // Hash Algorithms.", hashlib's page in python-stdlib q07).
  /^(?:https?:\/\/|www\.)\S+/i,
  // A paywall's line: "Members get every test in full." (a consumer magazine's test story, velora-recall q13).
  /^(?:members|subscribers)\s+(?:get|can (?:read|see|download))\b/i,
  // A document's number line: "Notice number 2025-014, revision 2.", "Report no. OTL-25-0412.".
  /^(?:[A-Z][\w-]*\s){0,3}(?:number|no\.?)\s*[\w/.-]*\d[\w/.-]*(?:,\s*(?:revision|rev\.?|version|issue)\s*\w+)?\.?$/i,
  // An address line: a name, a street and its number, a town ("Ostvik Test Laboratories, Industriveien 14, Ostvik.").
  /^(?:\p{Lu}[\p{L}&'.-]*\s?){1,6},\s*(?:\p{Lu}[\p{L}.'-]*\s){1,3}\d{1,4}[a-z]?,\s*(?:\d{3,5}\s)?(?:\p{Lu}[\p{L}'-]*\s?){1,3}\.?$/u,
  // A working paper's notice: "Not peer-reviewed; comments welcome.", "Draft: do not cite without permission."
  /^(?:draft\W+)?not (?:yet )?peer[- ]reviewed\b|\bcomments (?:are )?welcome\.?$|\bdo not (?:cite|quote)(?: or (?:cite|quote|circulate))? without (?:the authors?'? )?permission\b/i,
];

/** Whether a sentence (or list item) is page furniture rather than content. */
export function isBoilerplate(sentence: string): boolean {
  const s = sentence.replace(/\s+/g, ' ').trim();
  return PATTERNS.some((p) => p.test(s));
}

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
  /(?:^|[\s(,])-{1,2}[a-z][\w-]*,\s*-{1,2}[a-z][\w-]*,?\s*(?:and|or|and\/or)\s*-{1,2}[a-z]/i,
  // Bylines, publication and bulletin lines, photo credits.
  /^(?:published|posted|updated|last (?:updated|modified)|written|photo(?:graph)?|image|illustration)(?: on)?\s*(?:\d|by\b|:|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)/i,
  /^[A-Z][\w&' -]{2,80},\s*(?:bulletin|report|note|paper|press release|working paper)\s+no\.?\s*[\w/.-]+\.?$/i,
  // "Eskerford University Hydrology Group, Working Paper 23-07, revision 2 (March 2025).": a series line.
  /^[A-Z][\w&' -]{2,80},\s*(?:bulletin|report|note|paper|working paper|technical (?:report|note))\s+(?:no\.?\s*)?[\w/.-]*\d[\w/.-]*(?:,\s*(?:revision|rev\.|version)\s*\d+)?(?:\s*\([^)]{3,30}\))?\.?$/i,
  /^this (?:article|story|page|post) (?:is based on|was (?:first )?published|first appeared|was updated)\b/i,
  // A document describing itself rather than its subject: "This note explains how …", "This timeline collects …",
  // "It is meant as a reference for readers …". True of the source, never a finding about the world.
  /^(?:this|the present) (?:note|report|timeline|document|paper|page|guide|summary|chapter|section|overview|bulletin|brief(?:ing)?)\s+(?:(?:also|briefly|only)\s+)?(?:explains|describes|collects|presents|sets out|summari[sz]es|outlines|covers|lists|is (?:meant|intended|organi[sz]ed|divided))\b/i,
  /^(?:it|this) is (?:meant|intended|written) (?:as|to (?:be|serve as)) (?:a |an )?(?:reference|guide|overview|introduction|primer|summary)\b/i,
  // A sentence its own source flags as unsupported ("The causes are disputed.[citation needed]").
  /\[(?:citation|clarification|verification|source) needed\]|\[(?:dubious|unreliable source|who|when|according to whom)\??[^\]]{0,30}\]/i,
  // A list's lead-in ("Three explanations are commonly given:", "… are as follows:"): what it announces is in the
  // items, not in it. Only announcing phrasings: in a manual many sentences that end in a colon state a fact.
  /\b(?:(?:the )?following|as follows|(?:are|is) (?:commonly |usually |often |generally )?(?:given|listed|quoted|cited|proposed)|differs? between (?:the )?(?:sources|reports|studies))\s*:$/i,
  // A title cut off by the extractor ("Irrigation, Climate and Regulation in the Decline of Lake...").
  /\w(?:\.\.\.|…)$/,
];

/** Whether a sentence (or list item) is page furniture rather than content. */
export function isBoilerplate(sentence: string): boolean {
  const s = sentence.replace(/\s+/g, ' ').trim();
  return PATTERNS.some((p) => p.test(s));
}

import { pointsBack } from '../nlp/back-reference';
import { answerWithBases, type BriefDispute } from '../nlp/figure-basis';
import { isMethodStatement } from '../nlp/first-person';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { extractQuantities, isTime } from '../nlp/quantities';
import { stem, tokenize } from '../nlp/tokens';
import { clip } from '../topics';
import { reviseForFeedback } from './feedback-revision';
import { answersClause, clauseTerms } from './outline-architect';
import { FramerInput, FramerOutput } from '../../roles/framer-schemas';
import { MAX_INTRO_FINDINGS, quoted } from '../../roles/framer';

function stopPhrase(reason: string): string {
  const r = reason.toLowerCase();
  if (/budget|token|cost|money|deadline|time/.test(r))
    return 'when its budget ran out, so the findings rest on the evidence gathered until then';
  if (/iteration|max/.test(r)) return 'after the maximum number of research iterations';
  if (/gain|diminish/.test(r)) return 'when further searching added little new information';
  if (/nothing_left|no open question/.test(r)) return 'when no open questions were left to ask';
  if (/sufficient|covered|complete|done/.test(r)) return 'when the research questions were sufficiently covered';
  return r.trim().length > 0 ? `for this reason: ${normalizeWhitespace(reason)}` : 'when the research loop ended';
}

/** Titles in a sentence: quoted when one is a question or holds a comma, so "…and when?, How large…?." cannot happen. */
function listTitles(titles: readonly string[]): string {
  const listed = titles.some((t) => /[?,;]/.test(t)) ? titles.map(quoted) : [...titles];
  if (listed.length <= 1) return listed.join('');
  return `${listed.slice(0, -1).join(', ')} and ${listed[listed.length - 1]}`;
}

/** Two findings that share most of their words and every figure state one thing: the introduction states it once. */
function sameFinding(a: string, b: string): boolean {
  const words = (t: string) => new Set(tokenize(t).map(stem));
  const x = words(a);
  const y = words(b);
  const figures = (w: Set<string>) =>
    [...w]
      .filter((t) => /\d/.test(t))
      .sort()
      .join(' ');
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return figures(x) === figures(y) && shared / Math.max(1, Math.min(x.size, y.size)) >= SAME_FINDING;
}
/**
 * An opening that leans on the passage around the sentence: an example of something stated before it ("For example, git
 * commit --amend --no-edit amends a commit …"), a contrast or an addition to it ("However, …", "Also, …"), a case it
 * describes ("In this case, …"). In its section the sentence before it gives it sense; quoted alone in the introduction
 * as a main finding, it does not (decision 0152).
 */
const LEANING_OPENER =
  /^(?:for (?:example|instance)|e\.g\.|however|also|similarly|likewise|in addition|additionally|moreover|furthermore|otherwise|instead|again|in (?:this|that|such a|either|each|both) cases?|in contrast|by contrast|conversely|nevertheless|nonetheless)\b/i;

/**
 * A sentence reporting that someone asked something ("Harte asked why the two sets of level figures differed.") shares
 * the question's words and states no finding: lake-varen q01's introduction gave it as the answer to "Why do the
 * published figures differ?" (decision 0166).
 */
const REPORTED_QUESTION =
  /^[^,;:]{0,80}?\b(?:asked|asks|wondered|wonders|queried|queries|enquired|inquired)\s+(?:\w+\s+){0,3}?(?:why|whether|how|what|when|where|who|which|if|about)\b/i;

/** A main finding holds at least this many content words when its section has such a sentence. */
const MIN_FINDING_WORDS = 4;
/** Share of the shorter finding's words the longer one holds for the two to be one finding. */
const SAME_FINDING = 0.8;

/**
 * A section whose clause the sources dispute has no finding of its own to state in the introduction (issue 25): the
 * answer in brief names the dispute, and any sentence answering the clause is one source's position ("The regional water
 * authority attributes the decline mainly to lower rainfall …" under "What caused …?" while the sources are divided on
 * whether irrigation caused it). Disputed: a dispute the brief names for the clause (`answerWithBases`) whose sides each
 * answer the clause's kind of question — a figure under "How large …?", a cause word under "What caused …?".
 */
function disputedClause(disputes: readonly BriefDispute[], title: string): boolean {
  const terms = clauseTerms(title);
  if (terms.kind.size === 0) return false;
  const answersKind = (side: string) =>
    terms.size
      ? extractQuantities(side).some((q) => !isTime(q))
      : tokenize(side)
          .map(stem)
          .some((t) => terms.kind.has(t));
  return disputes.some((d) => answerWithBases([d], title) !== null && d.sides.every(answersKind));
}

export function framerOffline(input: FramerInput): FramerOutput {
  return reviseForFeedback(input, offlineFrame(input));
}

function offlineFrame(input: FramerInput): FramerOutput {
  const question = normalizeWhitespace(input.question);
  const asked = /[?.!]$/.test(question) ? question : `${question}?`;
  const written = input.sections.filter((s) => s.sentences.some((x) => x.evidenceIds.length > 0));
  const scope =
    written.length === 0
      ? 'The evidence gathered did not support any section of findings.'
      : `The report is organised in ${written.length} ${written.length === 1 ? 'section' : 'sections'}: ${listTitles(written.map((s) => s.title))}.`;
  const open = input.openQuestions.length;
  const limits = `Every finding below is quoted from the cited sources; research stopped ${stopPhrase(input.stopReason)}${
    open > 0 ? `, with ${open} ${open === 1 ? 'question' : 'questions'} still open` : ''
  }.`;
  const narrowed = (input.scope ?? []).map((x) => normalizeWhitespace(x).replace(/[.!?]+$/, ''));
  const within = narrowed.length > 0 ? ` Its scope was narrowed during research to: ${narrowed.join('; ')}.` : '';
  // The main findings: each of the first sections' most direct answer — the cited sentence that shares most of the
  // question's and the section title's words for its length (a section reads in its sources' order, so its opening
  // sentence is not always its answer; decision 0089) — verbatim with its citations, each stated once.
  const findings: FramerOutput['introduction'] = [];
  const used = new Set<string>();
  for (const section of written) {
    if (findings.length >= MAX_INTRO_FINDINGS) break;
    if (disputedClause(input.disputes ?? [], section.title)) continue;
    const wanted = statementStems(`${question} ${section.title}`);
    const directness = (text: string) => {
      const words = statementStems(text);
      return [...words].filter((w) => wanted.has(w)).length / Math.sqrt(Math.max(1, words.size));
    };
    // A list's lead-in ("Three explanations are commonly given:") states no finding on its own; a source saying how it
    // worked ("We construct a monthly water balance …") is context, not a finding (decision 0102).
    const candidates = section.sentences
      .filter((x) => x.evidenceIds.length > 0 && !used.has(x.text) && !/:\s*$/.test(x.text) && !isMethodStatement(x.text))
      // Quoted apart from its section, a sentence that points back points at nothing (decision 0112), and one that opens
      // with an example or a contrast illustrates or qualifies nothing (0152).
      .filter((x) => pointsBack(x.text) === null && !LEANING_OPENER.test(x.text.trim()) && !REPORTED_QUESTION.test(x.text))
      .filter((x) => !findings.some((f) => sameFinding(f.text, x.text)));
    // A finding says something: "The causes of the decline are disputed." shares the question's words and states none.
    const substantial = candidates.filter((x) => statementStems(x.text).size >= MIN_FINDING_WORDS);
    // And it answers what its section asks (decision 0138): under "What caused …?" a sentence naming a cause, under "How
    // large …?" a fall or a measure — not "Since the mid-2010s the lake has experienced a sharp fall …", which shares
    // the question's words and answers neither.
    const terms = clauseTerms(section.title);
    const answering = substantial.filter((x) => answersClause(x.text, terms));
    const pool = answering.length > 0 ? answering : substantial.length > 0 ? substantial : candidates;
    const best = pool.reduce<{ text: string; evidenceIds: string[]; score: number } | null>((top, x) => {
      const score = directness(x.text);
      return top === null || score > top.score ? { ...x, score } : top;
    }, null);
    if (!best) continue;
    used.add(best.text);
    findings.push({ text: best.text, evidenceIds: [...new Set(best.evidenceIds)] });
  }
  const introduction = [
    { text: clip(`This report addresses the question: ${asked}${within}`, 4000), evidenceIds: [] },
    // When the sources disagree on what the question asks, the frame step's answer in brief follows the question (decision
    // 0138): the findings after it are the answers the sections give, with no sentence of ours announcing them.
    ...(findings.length > 0
      ? [
          ...(answerWithBases(input.disputes ?? [], question) === null
            ? [{ text: 'In brief, the sources state the following.', evidenceIds: [] }]
            : []),
          ...findings,
        ]
      : []),
    { text: clip(scope, 4000), evidenceIds: [] },
    { text: clip(limits, 4000), evidenceIds: [] },
  ];

  // The conclusion repeats no body sentence (issue 25 item 4, decision 0089): an extractive engine cannot restate a
  // finding in other words, so it says what stays open, which the frame step adds whatever the engine (openPoints).
  const conclusion: FramerOutput['conclusion'] = [];
  return { introduction, conclusion };
}

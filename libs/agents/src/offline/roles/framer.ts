import { normalizeWhitespace } from '../nlp/statement-terms';
import { cosine, tfidfVectors } from '../nlp/tfidf';
import { clip } from '../topics';
import { reviseForFeedback } from './feedback-revision';
import { FramerInput, FramerOutput } from '../../roles/framer-schemas';
import { MAX_INTRO_FINDINGS } from '../../roles/framer';

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

function listTitles(titles: readonly string[]): string {
  if (titles.length <= 1) return titles.join('');
  return `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
}

/** The sentence most similar on average to the rest of its section (tf-idf cosine); ties go to the earlier one. */
function centralSentence(sentences: readonly { text: string; evidenceIds: string[] }[]): { text: string; evidenceIds: string[] } | null {
  const cited = sentences.filter((s) => s.evidenceIds.length > 0);
  if (cited.length <= 1) return cited[0] ?? null;
  const vectors = tfidfVectors(cited.map((s) => s.text));
  let best = 0;
  let bestScore = -1;
  vectors.forEach((v, i) => {
    const score = vectors.reduce((sum, w, j) => (i === j ? sum : sum + cosine(v, w)), 0) / (vectors.length - 1);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return cited[best];
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
      : `It is organised in ${written.length} ${written.length === 1 ? 'section' : 'sections'}: ${listTitles(written.map((s) => s.title))}.`;
  const open = input.openQuestions.length;
  const limits = `Every finding below is quoted from the cited sources; research stopped ${stopPhrase(input.stopReason)}${
    open > 0 ? `, with ${open} ${open === 1 ? 'question' : 'questions'} still open` : ''
  }.`;
  const narrowed = (input.scope ?? []).map((x) => normalizeWhitespace(x).replace(/[.!?]+$/, ''));
  const within = narrowed.length > 0 ? ` Its scope was narrowed during research to: ${narrowed.join('; ')}.` : '';
  // The main findings: each section opens with its most direct answer (outline architect), so the first sections'
  // opening sentences, verbatim and with their citations, answer the question before the detail.
  const findings: FramerOutput['introduction'] = [];
  const used = new Set<string>();
  for (const section of written) {
    if (findings.length >= MAX_INTRO_FINDINGS) break;
    // A list's lead-in ("Three explanations are commonly given:") states no finding on its own.
    const first = section.sentences.find((x) => x.evidenceIds.length > 0 && !used.has(x.text) && !/:\s*$/.test(x.text));
    if (!first) continue;
    used.add(first.text);
    findings.push({ text: first.text, evidenceIds: [...new Set(first.evidenceIds)] });
  }
  const introduction = [
    { text: clip(`This report addresses the question: ${asked}${within}`, 4000), evidenceIds: [] },
    ...(findings.length > 0 ? [{ text: 'In brief, the sources found state the following.', evidenceIds: [] }, ...findings] : []),
    { text: clip(scope, 4000), evidenceIds: [] },
    { text: clip(limits, 4000), evidenceIds: [] },
  ];

  // The conclusion: each section's most central finding, unless the introduction already stated it, then what stays open.
  const conclusion: FramerOutput['conclusion'] = [];
  for (const section of written) {
    const central = centralSentence(section.sentences.filter((x) => !used.has(x.text)));
    if (!central) continue;
    used.add(central.text);
    conclusion.push({ text: central.text, evidenceIds: [...new Set(central.evidenceIds)] });
  }
  return { introduction, conclusion };
}

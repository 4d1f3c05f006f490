import { buildPrompt } from '../prompt/build-prompt';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { cosine, tfidfVectors } from '../offline/nlp/tfidf';
import { clip } from '../offline/topics';
import { reviseForFeedback } from './feedback-revision';
import { FramerInput, FramerOutput } from './framer-schemas';
import { cleanCitedSentences } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';

export { FramerInput, FramerOutput } from './framer-schemas';

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

function offline(input: FramerInput): FramerOutput {
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
  const introduction = [clip(`This report addresses the question: ${asked}${within}`, 4000), clip(scope, 4000), clip(limits, 4000)].map(
    (t) => ({ text: t, evidenceIds: [] }),
  );

  const conclusion: FramerOutput['conclusion'] = [];
  const seen = new Set<string>();
  for (const section of written) {
    const central = centralSentence(section.sentences);
    if (!central || seen.has(central.text)) continue;
    seen.add(central.text);
    conclusion.push({ text: central.text, evidenceIds: [...new Set(central.evidenceIds)] });
  }
  return { introduction, conclusion };
}

function check(input: FramerInput, output: FramerOutput): ReferenceCheck<FramerOutput> {
  const known = new Set(input.sections.flatMap((s) => s.sentences.flatMap((x) => x.evidenceIds)));
  const intro = cleanCitedSentences(output.introduction, new Set(), 'introduction sentence');
  const conclusion = cleanCitedSentences(output.conclusion, known, 'conclusion sentence');
  const issues = [...intro.issues, ...conclusion.issues];
  const written = input.sections.some((s) => s.sentences.some((x) => x.evidenceIds.length > 0));
  if (output.conclusion.length === 0 && written) issues.push('the conclusion is empty, though the sections state findings');
  return {
    issues,
    cleaned: intro.kept.length > 0 ? { introduction: intro.kept, conclusion: conclusion.kept } : null,
    dropped: intro.dropped + conclusion.dropped,
  };
}

export const framer: AgentRole<FramerInput, FramerOutput, 'framer'> = {
  name: 'framer',
  temperature: 0.4,
  input: FramerInput,
  output: FramerOutput,
  check,
  prompt: (input) =>
    buildPrompt({
      persona: 'Framer',
      task: 'Write the introduction and the conclusion of the report from its verified sections.',
      rules: [
        'Introduction: two or three plain sentences that state the question and the scope of the report; no facts, no citations (evidenceIds empty).',
        'Conclusion: the key finding of each section, each sentence citing the evidence ids that section used for it; add no fact that the sections do not state.',
        'Mention why research stopped and that open questions remain, if any.',
      ],
      callRules: [
        ...(input.scope?.length ? ['The scope was narrowed during research (see "narrowed scope"): say so in the introduction.'] : []),
        ...(input.feedback
          ? [
              'A reviewer rejected the previous version (see "reviewer feedback"): revise the introduction and conclusion as it asks, within the rules.',
            ]
          : []),
      ],
      output: FramerOutput,
      data: [
        ['question', input.question],
        [
          'sections',
          input.sections
            .map((s) => `## ${s.title}\n${s.sentences.map((x) => `${x.text} ${x.evidenceIds.map((id) => `[${id}]`).join('')}`).join('\n')}`)
            .join('\n\n'),
        ],
        ['open questions', input.openQuestions.join('\n') || '(none)'],
        ['stop reason', input.stopReason],
        ...(input.scope?.length ? ([['narrowed scope', input.scope.join('\n')]] as const) : []),
        ...(input.feedback ? ([['reviewer feedback', input.feedback]] as const) : []),
      ],
    }),
  offline,
};

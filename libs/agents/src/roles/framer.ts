import { buildPrompt } from '../prompt/build-prompt';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { namePoint } from '../offline/nlp/dispute-reason';
import { answerWithBases, type BriefDispute } from '../offline/nlp/figure-basis';
import { clip } from '../offline/topics';
import { templateQuestion } from '../offline/template-questions';
import { FramerInput, FramerOutput } from './framer-schemas';
import { cleanCitedSentences } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';

export { FramerInput, FramerOutput } from './framer-schemas';

/** The introduction states at most this many findings: the most direct answer of the first sections. */
export const MAX_INTRO_FINDINGS = 4;
/** The conclusion names at most this many open questions by their text (it gives how many there are). */
const MAX_NAMED_OPEN = 4;

/** A question or title as the report quotes it: in double quotes, its own double quotes turned single. */
export function quoted(text: string): string {
  return `"${normalizeWhitespace(text).replace(/"/g, "'")}"`;
}

function quoteList(items: readonly string[], max: number): string {
  const named = items.slice(0, max).map(quoted);
  const more = items.length - named.length;
  // No count of the rest: a figure the frame step's context does not hold would fail the guard.
  return more > 0 ? `${named.join('; ')}, among others` : named.join('; ');
}

/** A question of the run as `reportOpenQuestions` reads it. */
export interface RunQuestion {
  id: string;
  text: string;
  parentId: string | null;
}

/**
 * The questions the report names as open — one list, the conclusion's and the method section's (decision 0105): the
 * plan's and the analysts' questions the research left open or partial (not the research loop's follow-ups, which count
 * for the question they follow up: "What are the basic facts about lake varen water level?"), each once; never the
 * report's own question or a question a section answers under its heading (0096); never a question that writes a name
 * of the report's question in lower case, nor one of the offline planner's templates ("How is Arvenna measured, and what
 * mechanisms explain it?"): a search angle nobody asked, whose slot often holds a broken phrase (decision 0166).
 */
export function reportOpenQuestions(input: {
  question: string;
  open: readonly RunQuestion[];
  /** Questions an interview asked: open ones are named even though they chain from another. */
  interviewQuestionIds?: ReadonlySet<string>;
  /** Titles of the report's body sections. */
  sectionTitles: readonly string[];
}): string[] {
  const asKey = (q: string) =>
    q
      .trim()
      .toLowerCase()
      .replace(/[?.!\s]+$/, '');
  const answered = new Set([input.question, ...input.sectionTitles].map(asKey));
  const names = [...input.question.matchAll(/(?<=\S\s+)\p{Lu}[\p{L}'’-]+/gu)].map((m) => m[0].replace(/['’]s$/, ''));
  const lowerName = (q: string) => names.some((n) => new RegExp(String.raw`\b${n.toLowerCase()}\b`).test(q) && !q.includes(n));
  const seen = new Set<string>();
  return input.open.flatMap((q) => {
    if (q.parentId !== null && !input.interviewQuestionIds?.has(q.id)) return [];
    const key = asKey(q.text);
    if (seen.has(key) || answered.has(key) || lowerName(q.text) || templateQuestion(q.text)) return [];
    seen.add(key);
    return [q.text];
  });
}

/**
 * The report's answer in brief, closing it: what the sources give for each disputed point the question asks about, in
 * our words, each figure with the basis the dispute's sentences give for it and the dispute named ("In brief, the
 * sources disagree on how far the water level fell (4.2 metres comparing annual means and 6.1 metres comparing seasonal
 * extremes), as set out under "Where the sources disagree"; they are divided on whether irrigation withdrawals caused
 * the decline."). It cites nothing and repeats no body sentence; the guard checks it against the sides and reasons it
 * names (decisions 0105, 0127). Empty when no dispute is about the question.
 */
export function briefAnswer(input: { question: string; disputes?: readonly BriefDispute[] }): FramerOutput['conclusion'] {
  const text = answerWithBases(input.disputes ?? [], input.question);
  return text ? [{ text: clip(text, 4000), evidenceIds: [] }] : [];
}

/**
 * What stays open: the questions the research did not answer and the points the sources disagree on. Not the framer's
 * to write: the frame step appends these sentences to the conclusion whatever engine framed it, so a model can neither
 * leave them out nor turn "do not settle" into "settle" (decision 0037).
 */
export function openPoints(input: Pick<FramerInput, 'openQuestions' | 'disputes'> & { question?: string }): FramerOutput['conclusion'] {
  const out: FramerOutput['conclusion'] = [];
  const open = input.openQuestions;
  if (open.length > 0)
    out.push({
      text: clip(
        `The sources found do not settle ${open.length === 1 ? 'this question, which stays' : `these ${open.length} questions, which stay`} open: ${quoteList(open, MAX_NAMED_OPEN)}.`,
        4000,
      ),
      evidenceIds: [],
    });
  const disputes = input.disputes ?? [];
  if (disputes.length > 0) {
    // Each point as a reader would name it, from the subject of its sides' statements (decision 0096).
    const subjects = [...new Set(disputes.flatMap((d) => namePoint(d.sides, input.question) ?? []))];
    const n = disputes.length;
    out.push({
      text: clip(
        `The sources disagree on ${n === 1 ? 'one point' : `${n} points`}${subjects.length > 0 ? ` (${subjects.join('; ')})` : ''}, which this report leaves open: each position is set out, with its sources, under "Where the sources disagree".`,
        4000,
      ),
      evidenceIds: [],
    });
  }
  if (out.length === 0 && input.disputes)
    out.push({ text: 'No question asked stays open, and the sources found do not contradict one another.', evidenceIds: [] });
  return out;
}

function check(input: FramerInput, output: FramerOutput): ReferenceCheck<FramerOutput> {
  const known = new Set(input.sections.flatMap((s) => s.sentences.flatMap((x) => x.evidenceIds)));
  const intro = cleanCitedSentences(output.introduction, known, 'introduction sentence');
  const conclusion = cleanCitedSentences(output.conclusion, known, 'conclusion sentence');
  const issues = [...intro.issues, ...conclusion.issues];
  const written = input.sections.some((s) => s.sentences.some((x) => x.evidenceIds.length > 0));
  if (!output.conclusion.some((s) => s.evidenceIds.length > 0) && written)
    issues.push('the conclusion states no cited finding, though the sections state findings');
  return {
    issues,
    cleaned: intro.kept.length > 0 ? { introduction: intro.kept, conclusion: conclusion.kept } : null,
    dropped: intro.dropped + conclusion.dropped,
  };
}

export const framerDefinition: RoleDefinition<FramerInput, FramerOutput, 'framer'> = {
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
        `Introduction: state the question, then the main findings (at most ${MAX_INTRO_FINDINGS} sentences, each the most direct answer a section gives, citing the evidence ids that section used for it), then the scope of the report. Framing sentences (question, scope) cite nothing and state no fact.`,
        'Conclusion: the key finding of each section, each sentence citing the evidence ids that section used for it; add no fact that the sections do not state.',
        'Do not write what stays open (the open questions and the disputes are given so that no finding contradicts them): the report closes the conclusion with them itself.',
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
        [
          'disputes',
          (input.disputes ?? []).map((d, i) => `${i + 1}. ${d.sides.map((x) => `"${x}"`).join(' against ')}`).join('\n') || '(none)',
        ],
        ['stop reason', input.stopReason],
        ...(input.scope?.length ? ([['narrowed scope', input.scope.join('\n')]] as const) : []),
        ...(input.feedback ? ([['reviewer feedback', input.feedback]] as const) : []),
      ],
    }),
};

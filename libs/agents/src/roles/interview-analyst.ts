import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { clip, stemSet, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
import { Id, Question, text } from './schemas';

export const Analyst = z.strictObject({ name: text(200), role: text(200), focus: text(2000) });

export const InterviewAnalystInput = z.strictObject({
  question: Question,
  analyst: Analyst,
  /** 0-based; `turns` is the most this interview may have. */
  turn: z.int().min(0),
  turns: z.int().min(1),
  /** This interview's earlier turns only: every analyst keeps its own conversation. */
  transcript: z.array(z.strictObject({ question: text(2000), answer: z.array(text(4000)) })),
  /** Hybrid mode: the questions the survey left open, which the interview may take up. */
  openQuestions: z.array(z.strictObject({ id: Id, text: text(2000) })),
});
export type InterviewAnalystInput = z.infer<typeof InterviewAnalystInput>;

export const InterviewAnalystOutput = z.strictObject({
  question: text(2000),
  /** The open question (of those given) this question takes up, or null. */
  openQuestionId: Id.nullable(),
  /** The analyst has what it needs after this question's answer: the interview ends with it. */
  last: z.boolean(),
});
export type InterviewAnalystOutput = z.infer<typeof InterviewAnalystOutput>;

const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;

/**
 * Offline: the first question takes up the open question closest to the analyst's focus (hybrid) or asks about the
 * focus itself; each later one asks about the focus topic the answers so far cover least (the gap). The analyst stops
 * when no focus topic is left unasked or the next turn would be the last.
 */
function offline(input: InterviewAnalystInput): InterviewAnalystOutput {
  const focus = stemSet(`${input.analyst.focus} ${input.analyst.role}`);
  const anchor = topicPhrases(input.question, 1)[0] ?? clip(input.question.replace(/[?!.]+$/, ''), 200);
  const topics = topicPhrases(input.analyst.focus, Math.max(3, input.turns)).filter((t) => t !== anchor);
  const asked = input.transcript.map((t) => stemSet(`${t.question} ${t.answer.join(' ')}`));
  const said = new Set(asked.flatMap((s) => [...s]));
  const gaps = topics.filter((t) => [...stemSet(t)].some((w) => !said.has(w)));
  const lastTurn = input.turn + 1 >= input.turns;
  if (input.turn === 0) {
    const open = input.openQuestions
      .map((q, order) => ({ ...q, order, score: overlap(stemSet(q.text), focus) }))
      .sort((a, b) => b.score - a.score || a.order - b.order)[0];
    if (open) return { question: clip(open.text, 2000), openQuestionId: open.id, last: lastTurn };
    const topic = topics[0] ?? anchor;
    return {
      question: clip(`As ${input.analyst.role}, what do the sources say about ${topic} for ${anchor}?`, 2000),
      openQuestionId: null,
      last: lastTurn || topics.length === 0,
    };
  }
  const gap = gaps.find((g) => !input.transcript.some((t) => t.question.includes(g)));
  if (!gap) {
    return {
      question: clip(`What figures or dates do the sources give on ${anchor} that bear on ${input.analyst.focus}?`, 2000),
      openQuestionId: null,
      last: true,
    };
  }
  return {
    question: clip(`And what about ${gap}: what do the sources report on it for ${anchor}?`, 2000),
    openQuestionId: null,
    last: lastTurn || gaps.length <= 1,
  };
}

function check(input: InterviewAnalystInput, output: InterviewAnalystOutput): ReferenceCheck<InterviewAnalystOutput> {
  const known = new Set(input.openQuestions.map((q) => q.id));
  const id = output.openQuestionId;
  if (id === null || known.has(id)) return { issues: [], cleaned: output, dropped: 0 };
  return {
    issues: unknownIdIssues([id], known, 'openQuestionId names an open question'),
    cleaned: { ...output, openQuestionId: null },
    dropped: 1,
  };
}

export const interviewAnalyst: AgentRole<InterviewAnalystInput, InterviewAnalystOutput, 'interviewAnalyst'> = {
  name: 'interviewAnalyst',
  temperature: 0.5,
  input: InterviewAnalystInput,
  output: InterviewAnalystOutput,
  check,
  offline,
  prompt: (input) =>
    buildPrompt({
      persona: 'Analyst interviewing an expert',
      task: 'Ask the expert your next question about the research question, from your focus (who you are: the "you" data block).',
      rules: [
        'One question, specific and answerable from documents: figures, dates, named sources, what changed.',
        'Do not repeat a question of the transcript; ask about what its answers left out (the gaps of your focus).',
        'If the question takes up one of the open questions listed, give its id as openQuestionId; otherwise null.',
        "Set last to true when this question's answer completes what your focus needs, and always on the last turn.",
      ],
      callRules: [
        `This is turn ${input.turn + 1} of at most ${input.turns}${input.turn + 1 >= input.turns ? ': the last turn, so last is true' : ''}.`,
      ],
      output: InterviewAnalystOutput,
      data: [
        ['research question', input.question],
        ['you', `${input.analyst.name}, ${input.analyst.role}. Focus: ${input.analyst.focus}`],
        [
          'transcript',
          input.transcript.map((t, i) => `Q${i + 1}: ${t.question}\nA${i + 1}: ${t.answer.join(' ') || '(no answer found)'}`).join('\n\n'),
        ],
        ['open questions', listWithIds(input.openQuestions)],
      ],
    }),
};

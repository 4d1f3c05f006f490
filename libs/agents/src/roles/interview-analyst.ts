import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
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

export const interviewAnalystDefinition: RoleDefinition<InterviewAnalystInput, InterviewAnalystOutput, 'interviewAnalyst'> = {
  name: 'interviewAnalyst',
  temperature: 0.5,
  input: InterviewAnalystInput,
  output: InterviewAnalystOutput,
  check,
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

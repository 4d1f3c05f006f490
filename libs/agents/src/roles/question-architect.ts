import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
import { Feedback, Id, Priority, Question, Topic, text } from './schemas';

export const QuestionArchitectInput = z.strictObject({
  question: Question,
  topics: z.array(Topic).max(50),
  perspectives: z.array(z.strictObject({ id: Id, name: text(200), focus: text(2000) })).max(12),
  feedback: Feedback,
});
export type QuestionArchitectInput = z.infer<typeof QuestionArchitectInput>;

export const PlannedQuestion = z.strictObject({ perspectiveId: Id.nullable(), text: text(2000), priority: Priority });
export const QuestionArchitectOutput = z.strictObject({ questions: z.array(PlannedQuestion).min(1) });
export type QuestionArchitectOutput = z.infer<typeof QuestionArchitectOutput>;

function check(input: QuestionArchitectInput, output: QuestionArchitectOutput): ReferenceCheck<QuestionArchitectOutput> {
  const known = new Set(input.perspectives.map((p) => p.id));
  const issues = unknownIdIssues(
    output.questions.flatMap((q) => (q.perspectiveId === null ? [] : [q.perspectiveId])),
    known,
    'questions name perspective',
  );
  let dropped = 0;
  const questions = output.questions.map((q) => {
    if (q.perspectiveId === null || known.has(q.perspectiveId)) return q;
    dropped++;
    return { ...q, perspectiveId: null };
  });
  return { issues, cleaned: { questions }, dropped };
}

export const questionArchitectDefinition: RoleDefinition<QuestionArchitectInput, QuestionArchitectOutput, 'questionArchitect'> = {
  name: 'questionArchitect',
  temperature: 0.4,
  check,
  input: QuestionArchitectInput,
  output: QuestionArchitectOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Question Architect',
      task: 'Decompose the research question into sub-questions: one for each part the question asks (its clauses, the entities and aspects it names), then one or two per perspective on what that perspective would ask, plus the main question itself at priority 100.',
      rules: [
        'Each sub-question is answerable from sources and names its subject explicitly (no pronouns).',
        'Fit the sub-questions to the kind of question: for a how-to or reference question about a tool, a program or its documentation, ask about the steps, the calls, options and defaults, a minimal example, errors and limits, and version differences — not about history, costs or rules unless it asks for them. Name the task as asked ("read a file line by line"), never a noun pair cut out of it.',
        'perspectiveId is the id of the perspective that asks it, or null for the main question and feedback questions.',
        'priority is an integer 0–100: how much the answer matters to the report.',
        'No two questions ask the same thing.',
        'When reviewer feedback is given, add questions that address it.',
      ],
      output: QuestionArchitectOutput,
      data: [
        ['question', input.question],
        ['topics', input.topics.join('\n')],
        ['perspectives', listWithIds(input.perspectives.map((p) => ({ id: p.id, text: `${p.name}: ${p.focus}` })))],
        ...(input.feedback ? [['reviewer feedback', input.feedback] as const] : []),
      ],
    }),
};

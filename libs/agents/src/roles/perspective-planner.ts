import { z } from 'zod';
import { buildPrompt } from '../prompt/build-prompt';
import type { RoleDefinition, ReferenceCheck } from './role';
import { Feedback, Question, Topic, Unit, text } from './schemas';

export const PerspectivePlannerInput = z.strictObject({
  question: Question,
  objective: z.strictObject({ statement: text(4000), includedTopics: z.array(Topic).max(50) }),
  count: z.int().min(1).max(12),
  feedback: Feedback,
});
export type PerspectivePlannerInput = z.infer<typeof PerspectivePlannerInput>;

export const PlannedPerspective = z.strictObject({
  name: text(200),
  role: text(200),
  affiliation: z.string().max(200),
  focus: text(2000),
  budgetWeight: Unit,
});
export const PerspectivePlannerOutput = z.strictObject({ perspectives: z.array(PlannedPerspective).min(1).max(12) });
export type PerspectivePlannerOutput = z.infer<typeof PerspectivePlannerOutput>;

/** More perspectives than asked for are cut to the count (a soft limit); fewer are kept. */
function check(input: PerspectivePlannerInput, output: PerspectivePlannerOutput): ReferenceCheck<PerspectivePlannerOutput> {
  const perspectives = output.perspectives.slice(0, input.count);
  return { issues: [], cleaned: { perspectives }, dropped: 0, trimmed: output.perspectives.length - perspectives.length };
}

export const perspectivePlannerDefinition: RoleDefinition<PerspectivePlannerInput, PerspectivePlannerOutput, 'perspectivePlanner'> = {
  check,
  name: 'perspectivePlanner',
  temperature: 0.5,
  input: PerspectivePlannerInput,
  output: PerspectivePlannerOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Perspective Planner',
      task: 'Propose the number of analyst perspectives the request asks for, that together cover the research objective from the angles that fit what the question is.',
      rules: [
        'Choose analysts for the kind of question. A question about the world (an event, a place, a policy, a market) calls for angles such as science, regulation, economics, affected people, skeptical method review, history. A how-to or reference question about a tool, a program, an API or its documentation calls for the people who would answer it: a practitioner who does it, a maintainer of the reference, a newcomer doing it the first time, then a troubleshooter (errors, limits), a release historian (versions), performance or security — not an economist or a regulator unless the question asks about costs or rules.',
        'Each perspective has a name, a role, an affiliation, a focus of one or two sentences tied to the objective, and a budgetWeight; the weights sum to 1.',
        'When reviewer feedback is given, follow it: add the perspectives it asks for and shape the focus accordingly.',
        'Perspectives must not overlap in focus.',
      ],
      output: PerspectivePlannerOutput,
      data: [
        ['question', input.question],
        ['objective', `${input.objective.statement}\nTopics: ${input.objective.includedTopics.join('; ')}`],
        ...(input.feedback ? [['reviewer feedback', input.feedback] as const] : []),
      ],
      request: `Propose exactly ${input.count} perspectives.`,
    }),
};

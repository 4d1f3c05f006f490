import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
import { Id, Priority, Question, Unit, text } from './schemas';

export const ModeratorInput = z.strictObject({
  question: Question,
  coverage: z.array(z.strictObject({ questionId: Id, text: text(2000), score: Unit })),
  iteration: z.int().min(0),
  maxFollowUps: z.int().min(0).max(50),
});
export type ModeratorInput = z.infer<typeof ModeratorInput>;

/** parentId: the question refined; null makes the follow-up a root question (a model's unknown parent ends so). */
export const FollowUp = z.strictObject({ parentId: Id.nullable(), text: text(2000), priority: Priority });
export const ModeratorOutput = z.strictObject({ followUps: z.array(FollowUp) });
export type ModeratorOutput = z.infer<typeof ModeratorOutput>;

/** Questions scoring below this are weakly covered and get follow-ups. */
export const WELL_COVERED = 0.5;

function check(input: ModeratorInput, output: ModeratorOutput): ReferenceCheck<ModeratorOutput> {
  const known = new Set(input.coverage.map((c) => c.questionId));
  const issues = unknownIdIssues(
    output.followUps.flatMap((f) => (f.parentId === null ? [] : [f.parentId])),
    known,
    'follow-ups name parent question',
  );
  let dropped = 0;
  const followUps = output.followUps.map((f) => {
    if (f.parentId === null || known.has(f.parentId)) return f;
    dropped++;
    return { ...f, parentId: null };
  });
  const kept = followUps.slice(0, input.maxFollowUps);
  return { issues, cleaned: { followUps: kept }, dropped, trimmed: followUps.length - kept.length };
}

export const moderatorDefinition: RoleDefinition<ModeratorInput, ModeratorOutput, 'moderator'> = {
  name: 'moderator',
  temperature: 0.2,
  check,
  skipped: () => ({ followUps: [] }),
  // Every question well covered (or none asked for): nothing to follow up.
  idle: (input) => (input.maxFollowUps === 0 || input.coverage.every((c) => c.score >= WELL_COVERED) ? { followUps: [] } : null),
  input: ModeratorInput,
  output: ModeratorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Research Moderator',
      task: `Decide which weakly covered questions need follow-up research and write follow-up questions (no more than the request allows); write none when every question is well covered (score ≥ ${WELL_COVERED}).`,
      rules: [
        'A follow-up names the question it refines (parentId) and asks for what is missing: figures, official sources, counter-evidence, recent changes.',
        'Weakest questions first; priority 0–100 reflects how much the gap matters.',
        'Do not repeat follow-ups that earlier research iterations would already have asked.',
      ],
      callRules: [`This is research iteration ${input.iteration}.`],
      request: `At most ${input.maxFollowUps} follow-up questions.`,
      output: ModeratorOutput,
      data: [
        ['question', input.question],
        ['coverage', listWithIds(input.coverage.map((c) => ({ id: c.questionId, text: `(score ${c.score}) ${c.text}` })))],
      ],
    }),
};

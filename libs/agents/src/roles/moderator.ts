import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
import { Id, Priority, Question, Unit, text } from './schemas';

/**
 * What the sources found for a question (and the questions it refines) hold: distinct sources, those with dated text,
 * those with figures. A template aspect is asked only when its material is there (issue 25 item 3). Absent: unknown.
 */
export const QuestionMaterial = z.strictObject({ sources: z.int().min(0), dated: z.int().min(0), figures: z.int().min(0) });
export type QuestionMaterial = z.infer<typeof QuestionMaterial>;

export const ModeratorInput = z.strictObject({
  question: Question,
  coverage: z.array(z.strictObject({ questionId: Id, text: text(2000), score: Unit, material: QuestionMaterial.optional() })),
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

function coverageNote(c: ModeratorInput['coverage'][number]): string {
  const m = c.material;
  return m ? `score ${c.score}; sources ${m.sources}, dated ${m.dated}, figures ${m.figures}` : `score ${c.score}`;
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
        'Ask what changed recently only about a question whose sources hold dates from at least two sources ("dated"), and for independent confirmation of figures only when at least two sources give figures ("figures"); ask for figures only when some source gives them.',
        'Write a follow-up as a reader would ask it, naming its subject as the question does (its capitals, its possessives), never as a list of key words.',
      ],
      callRules: [`This is research iteration ${input.iteration}.`],
      request: `At most ${input.maxFollowUps} follow-up questions.`,
      output: ModeratorOutput,
      data: [
        ['question', input.question],
        ['coverage', listWithIds(input.coverage.map((c) => ({ id: c.questionId, text: `(${coverageNote(c)}) ${c.text}` })))],
      ],
    }),
};

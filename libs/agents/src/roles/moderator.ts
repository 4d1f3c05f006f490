import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { groupNearDuplicates } from '../offline/nlp/near-duplicates';
import { clip, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
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
/** Below this a question is barely touched: ask for the basic facts first. */
const BARELY_COVERED = 0.25;

const BASIC: readonly ((t: string) => string)[] = [
  (t) => `What figures are reported for ${t}?`,
  (t) => `What do official sources say about ${t}?`,
  (t) => `What are the basic facts about ${t}?`,
];
const DEEPER: readonly ((t: string) => string)[] = [
  (t) => `What evidence contradicts the reported claims about ${t}?`,
  (t) => `What independent sources confirm the figures for ${t}?`,
  (t) => `What has changed recently about ${t}?`,
];

function offline(input: ModeratorInput): ModeratorOutput {
  const anchor = topicPhrases(input.question, 1)[0];
  const weak = input.coverage
    .map((c, order) => ({ ...c, order }))
    .filter((c) => c.score < WELL_COVERED)
    .sort((a, b) => a.score - b.score || a.order - b.order);
  const candidates = weak.map((c) => {
    const topic = topicPhrases(c.text, 1)[0] ?? anchor ?? clip(c.text.replace(/[?!.]+$/, ''), 200);
    // Each iteration asks with the next template, so a question that stays weak is approached differently.
    const templates = c.score < BARELY_COVERED ? BASIC : DEEPER;
    const template = templates[input.iteration % templates.length];
    return { parentId: c.questionId, text: clip(template(topic), 2000), priority: Math.round(80 * (1 - c.score)) };
  });
  const groups = groupNearDuplicates(
    candidates.map((c, i) => ({ id: String(i), text: c.text })),
    0.85,
  );
  return { followUps: groups.map((g) => candidates[Number(g[0])]).slice(0, input.maxFollowUps) };
}

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

export const moderator: AgentRole<ModeratorInput, ModeratorOutput, 'moderator'> = {
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
  offline,
};

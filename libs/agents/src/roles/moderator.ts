import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { groupNearDuplicates } from '../offline/nlp/near-duplicates';
import { clip, topicPhrases } from '../offline/topics';
import type { AgentRole } from './role';
import { Id, Priority, Question, Unit, text } from './schemas';

export const ModeratorInput = z.strictObject({
  question: Question,
  coverage: z.array(z.strictObject({ questionId: Id, text: text(2000), score: Unit })),
  iteration: z.int().min(0),
  maxFollowUps: z.int().min(0).max(50),
});
export type ModeratorInput = z.infer<typeof ModeratorInput>;

export const FollowUp = z.strictObject({ parentId: Id, text: text(2000), priority: Priority });
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

export const moderator: AgentRole<ModeratorInput, ModeratorOutput, 'moderator'> = {
  name: 'moderator',
  temperature: 0.2,
  input: ModeratorInput,
  output: ModeratorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Research Moderator',
      task: `Decide which weakly covered questions need follow-up research and write at most ${input.maxFollowUps} follow-up questions; write none when every question is well covered (score ≥ ${WELL_COVERED}).`,
      rules: [
        'A follow-up names the question it refines (parentId) and asks for what is missing: figures, official sources, counter-evidence, recent changes.',
        'Weakest questions first; priority 0–100 reflects how much the gap matters.',
        `This is research iteration ${input.iteration}; do not repeat follow-ups that earlier iterations would already have asked.`,
      ],
      output: ModeratorOutput,
      data: [
        ['question', input.question],
        ['coverage', listWithIds(input.coverage.map((c) => ({ id: c.questionId, text: `(score ${c.score}) ${c.text}` })))],
      ],
    }),
  offline,
};

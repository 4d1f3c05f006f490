import { groupNearDuplicates } from '../nlp/near-duplicates';
import { clip, topicPhrases } from '../topics';
import { ModeratorInput, ModeratorOutput, WELL_COVERED } from '../../roles/moderator';

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

export function moderatorOffline(input: ModeratorInput): ModeratorOutput {
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

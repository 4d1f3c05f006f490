import { groupNearDuplicates } from '../nlp/near-duplicates';
import { BASIC, DEEPER } from '../follow-up-templates';
import { templateSlot } from '../template-questions';
import { asWritten, clip, topicPhrases } from '../topics';
import { ModeratorInput, ModeratorOutput, WELL_COVERED } from '../../roles/moderator';

/** Below this a question is barely touched: ask for the basic facts first. */
const BARELY_COVERED = 0.25;

export function moderatorOffline(input: ModeratorInput): ModeratorOutput {
  const anchor = topicPhrases(input.question, 1)[0];
  const weak = input.coverage
    .map((c, order) => ({ ...c, order }))
    .filter((c) => c.score < WELL_COVERED)
    .sort((a, b) => a.score - b.score || a.order - b.order);
  const candidates = weak.flatMap((c) => {
    // A template question's topic is in its slot, not in the template's words (templateSlot).
    const about = templateSlot(c.text) ?? c.text;
    const own = topicPhrases(about, 1)[0];
    const topic = own ? asWritten(own, about) : anchor ? asWritten(anchor, input.question) : clip(c.text.replace(/[?!.]+$/, ''), 200);
    // Only templates whose material the question's sources hold (unknown material: all of them); each iteration asks
    // with the next of them, so a question that stays weak is approached differently.
    const templates = (c.score < BARELY_COVERED ? BASIC : DEEPER).filter((t) => c.material === undefined || t.needs(c.material));
    if (templates.length === 0) return [];
    const template = templates[input.iteration % templates.length]!;
    return [{ parentId: c.questionId, text: clip(template.ask(topic), 2000), priority: Math.round(80 * (1 - c.score)) }];
  });
  const groups = groupNearDuplicates(
    candidates.map((c, i) => ({ id: String(i), text: c.text })),
    0.85,
  );
  return { followUps: groups.map((g) => candidates[Number(g[0])]!).slice(0, input.maxFollowUps) };
}

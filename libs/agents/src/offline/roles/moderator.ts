import { groupNearDuplicates } from '../nlp/near-duplicates';
import { clip, topicPhrases } from '../topics';
import { ModeratorInput, ModeratorOutput, WELL_COVERED, type QuestionMaterial } from '../../roles/moderator';

/** Below this a question is barely touched: ask for the basic facts first. */
const BARELY_COVERED = 0.25;

/** A follow-up template and what its question's sources must hold for it to be worth asking (issue 25 item 3). */
interface Template {
  ask: (topic: string) => string;
  needs: (m: QuestionMaterial) => boolean;
}
const ANY: Template['needs'] = () => true;

const BASIC: readonly Template[] = [
  { ask: (t) => `What figures are reported for ${t}?`, needs: (m) => m.figures >= 1 },
  { ask: (t) => `What do official sources say about ${t}?`, needs: ANY },
  { ask: (t) => `What are the basic facts about ${t}?`, needs: (m) => m.sources >= 1 },
];
const DEEPER: readonly Template[] = [
  { ask: (t) => `What evidence contradicts the reported claims about ${t}?`, needs: ANY },
  { ask: (t) => `What independent sources confirm the figures for ${t}?`, needs: (m) => m.figures >= 2 },
  { ask: (t) => `What has changed recently about ${t}?`, needs: (m) => m.dated >= 2 },
];

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.-]*(?:['’]s)?/gu;
const DETERMINER = /^(?:the|a|an|its|their|this|these)$/i;
const bare = (w: string) => w.toLowerCase().replace(/['’]s$/, '');

/**
 * A key phrase as its text writes it: "lake varen water level" in "How large was the decline of Lake Varen's water
 * level?" is "Lake Varen's water level" — the words in a row as they stand, capitals and possessives kept, with the
 * determiner before them ("the last commit"); word by word in the text's casing when they are not in a row.
 */
export function asWritten(phrase: string, text: string): string {
  const words = phrase.split(/\s+/).filter((w) => w.length > 0);
  const tokens = [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, k) => bare(tokens[i + k]!.word) === w.toLowerCase())) {
      // With its determiner ("the last commit"), in lower case.
      const before = tokens[i - 1];
      const from = before && DETERMINER.test(before.word) ? before.start : tokens[i]!.start;
      const written = text.slice(from, tokens[i + words.length - 1]!.end);
      return from === tokens[i]!.start ? written : written.charAt(0).toLowerCase() + written.slice(1);
    }
  }
  return words.map((w) => tokens.find((t) => bare(t.word) === w.toLowerCase())?.word.replace(/['’]s$/, '') ?? w).join(' ');
}

export function moderatorOffline(input: ModeratorInput): ModeratorOutput {
  const anchor = topicPhrases(input.question, 1)[0];
  const weak = input.coverage
    .map((c, order) => ({ ...c, order }))
    .filter((c) => c.score < WELL_COVERED)
    .sort((a, b) => a.score - b.score || a.order - b.order);
  const candidates = weak.flatMap((c) => {
    const own = topicPhrases(c.text, 1)[0];
    const topic = own ? asWritten(own, c.text) : anchor ? asWritten(anchor, input.question) : clip(c.text.replace(/[?!.]+$/, ''), 200);
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

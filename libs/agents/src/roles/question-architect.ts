import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { groupNearDuplicates } from '../offline/nlp/near-duplicates';
import { normalizeWhitespace } from '../offline/nlp/statement-terms';
import { clip, feedbackPhrases, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
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

/**
 * What / how much / when / why / who disagrees: the decomposition templates, rotated across perspectives. `a` is
 * the perspective's angle ("rules and standards"), so two perspectives on one topic still ask different things.
 */
const TEMPLATES: readonly ((topic: string, angle: string) => string)[] = [
  (t, a) => `What is known about ${t} in terms of ${a}?`,
  (t) => `What figures are reported for ${t}, and how were they measured?`,
  (t) => `When did the key developments in ${t} happen?`,
  (t, a) => `Why does ${t} matter for ${a}?`,
  (t, a) => `Who disputes the claims about ${t} regarding ${a}, and on what grounds?`,
];
const MAIN_PRIORITY = 100;
const FEEDBACK_PRIORITY = 95;
// Questions this similar (word-shingle Jaccard) are one question asked twice.
const DUPLICATE_THRESHOLD = 0.85;

/** The first two items of a perspective's focus ("rules, standards, … concerning X" → "rules and standards"). */
function angleOf(perspective: { name: string; focus: string }): string {
  const lead = perspective.focus.split(/\s+concerning\b|;|\.\s/)[0].trim();
  const items = lead
    .split(/,\s*|\s+and\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length > 0 ? clip(items.slice(0, 2).join(' and '), 120) : `the view of ${perspective.name.toLowerCase()}`;
}

function offline(input: QuestionArchitectInput): QuestionArchitectOutput {
  const main = normalizeWhitespace(input.question);
  const topics = input.topics.length > 0 ? input.topics : topicPhrases(main, 4);
  const anchor = topics[0] ?? 'the question';
  const candidates: { perspectiveId: string | null; text: string; priority: number }[] = [
    { perspectiveId: null, text: clip(main, 2000), priority: MAIN_PRIORITY },
  ];

  if (input.feedback) {
    for (const phrase of feedbackPhrases(input.feedback, 2)) {
      const about = phrase === anchor ? anchor : `${phrase} in relation to ${anchor}`;
      candidates.push({ perspectiveId: null, text: `What does the evidence say about ${about}?`, priority: FEEDBACK_PRIORITY });
    }
  }

  const perPerspective = input.perspectives.length <= 4 ? 3 : 2;
  input.perspectives.forEach((p, i) => {
    // Each perspective takes the next topic and its own slice of the templates, so the panel asks different things.
    const topic = topics[i % Math.max(1, topics.length)] ?? anchor;
    const angle = angleOf(p);
    for (let j = 0; j < perPerspective; j++) {
      const template = TEMPLATES[(i * 2 + j) % TEMPLATES.length];
      candidates.push({ perspectiveId: p.id, text: clip(template(topic, angle), 2000), priority: Math.max(10, 90 - 10 * j - 2 * i) });
    }
  });

  const unique = candidates.filter((c, i) => candidates.findIndex((d) => d.text.toLowerCase() === c.text.toLowerCase()) === i);
  const groups = groupNearDuplicates(
    unique.map((c, i) => ({ id: String(i), text: c.text })),
    DUPLICATE_THRESHOLD,
  );
  return { questions: groups.map((g) => unique[Number(g[0])]) };
}

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

export const questionArchitect: AgentRole<QuestionArchitectInput, QuestionArchitectOutput, 'questionArchitect'> = {
  name: 'questionArchitect',
  temperature: 0.4,
  check,
  input: QuestionArchitectInput,
  output: QuestionArchitectOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Question Architect',
      task: 'Decompose the research question into sub-questions, two or three per perspective (what, how much, when, why, who disagrees), plus the main question itself at priority 100.',
      rules: [
        'Each sub-question is answerable from sources and names its subject explicitly (no pronouns).',
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
  offline,
};

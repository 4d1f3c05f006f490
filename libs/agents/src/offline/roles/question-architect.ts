import { groupNearDuplicates } from '../nlp/near-duplicates';
import { normalizeWhitespace } from '../nlp/statement-terms';
import { asksAboutTool, questionParts } from '../question-parts';
import { clip, feedbackPhrases, focusItems, topicPhrases } from '../topics';
import { QuestionArchitectInput, QuestionArchitectOutput } from '../../roles/question-architect';

/**
 * What each kind of analyst asks about the question's focus: a perspective changes which sub-questions are asked.
 * A perspective is matched to an aspect by the words of its name and focus; one that matches none asks what its
 * own focus says about the subject. `ask` is for a question about the world (a lake, a market, a policy);
 * `askTool` for one about using a tool or an interface (a manual's question: the asker wants to do something, or it
 * names options, calls or identifiers), where "How is VACUUM measured?" or "When did git restore begin?" asks
 * nothing a manual answers, while its defaults, pitfalls and version changes are what such questions turn on.
 */
export interface Aspect {
  cue: RegExp;
  ask: (focus: string) => string;
  askTool: (focus: string) => string;
  /** For a how-to question, the task it asks to do ("read a file line by line in Node.js"). */
  askTask?: (task: string) => string;
}

export const ASPECTS: readonly Aspect[] = [
  // The practical panel's analysts (perspective-planner PRACTICAL_CATALOGUE) first: "support engineer" and
  // "performance engineer" are engineers too, and must ask their own aspect before the practitioner's.
  {
    cue: /maintainer|reference documentation/i,
    ask: (f) => `What does the reference documentation say about ${f}?`,
    askTool: (f) => `What calls, options and defaults does the reference documentation give for ${f}?`,
    askTask: (t) => `Which calls, options and defaults does the documentation give to ${t}?`,
  },
  {
    cue: /newcomer|first-time|learner/i,
    ask: (f) => `What does a newcomer need to know first about ${f}?`,
    askTool: (f) => `What is the simplest complete way to use ${f}, and what do newcomers get wrong?`,
    askTask: (t) => `What is the simplest complete way to ${t}, and what do newcomers get wrong?`,
  },
  {
    cue: /troubleshoot|support engineer|pitfall|edge case/i,
    ask: (f) => `What goes wrong with ${f}, and why?`,
    askTool: (f) => `What errors, limits and edge cases come up with ${f}?`,
    askTask: (t) => `What errors, limits and edge cases come up when you ${t}?`,
  },
  {
    cue: /release historian|between versions|deprecation/i,
    ask: (f) => `How has ${f} changed over time?`,
    askTool: (f) => `How has ${f} changed between versions, and what is deprecated?`,
    askTask: (t) => `How has the way to ${t} changed between versions?`,
  },
  {
    cue: /performance/i,
    ask: (f) => `How well does ${f} perform, and at what cost?`,
    askTool: (f) => `How does ${f} perform in time and memory, and what are the alternatives?`,
    askTask: (t) => `Which way to ${t} is fastest or uses least memory, and what are the trade-offs?`,
  },
  {
    cue: /security|unsafe/i,
    ask: (f) => `What security risks does ${f} carry?`,
    askTool: (f) => `When is ${f} unsafe, and what are the safe defaults?`,
    askTask: (t) => `What is unsafe when you ${t}, and what are the safe defaults?`,
  },
  {
    cue: /scien|mechanism|measurement|primary stud/i,
    ask: (f) => `How is ${f} measured, and what mechanisms explain it?`,
    askTool: (f) => `How does ${f} work?`,
  },
  {
    cue: /regulat|official|rules|standard|enforcement/i,
    ask: (f) => `What do official figures and rules say about ${f}?`,
    askTool: (f) => `What options and defaults does the documentation give for ${f}?`,
  },
  {
    cue: /econom|cost|market|industry/i,
    ask: (f) => `What does ${f} cost, and who bears the cost?`,
    askTool: (f) => `What does ${f} cost in time or resources, and what are the alternatives?`,
  },
  {
    cue: /communit|people|affected|social/i,
    ask: (f) => `How does ${f} affect the people and communities concerned?`,
    askTool: (f) => `What problems do users commonly run into with ${f}?`,
  },
  {
    cue: /method|skeptic|sceptic|uncertain|conflicting/i,
    ask: (f) => `Why do sources report different figures for ${f}?`,
    askTool: (f) => `What are the limitations and pitfalls of ${f}?`,
  },
  {
    cue: /histor|timeline|key events|journalis/i,
    ask: (f) => `When did ${f} begin, and what were the key events?`,
    askTool: (f) => `How has ${f} changed between versions?`,
  },
  {
    cue: /practi|engineer|implementation|operation/i,
    ask: (f) => `How is ${f} handled in practice?`,
    askTool: (f) => `How is ${f} used in practice, step by step?`,
    askTask: (t) => `What are the steps to ${t}, with a minimal working example?`,
  },
  {
    cue: /ethic|rights|fairness|accountab|legal/i,
    ask: (f) => `Who is accountable for ${f}, and what risks does it carry?`,
    askTool: (f) => `When is ${f} unsafe, and what risks does it carry?`,
  },
];
/** What an analyst of no known aspect asks: what its own angles say about the question's focus, or how to do its task. */
export const ANGLE_FOCUS = (angle: string, focus: string): string => `What do ${angle} say about ${focus}?`;
export const ANGLE_TASK = (angle: string, task: string): string => `What do ${angle} say about how to ${task}?`;

const MAIN_PRIORITY = 100;
const FEEDBACK_PRIORITY = 95;
/** The question's own clauses come first: they are what was asked. */
const CLAUSE_PRIORITY = 98;
const PERSPECTIVE_PRIORITY = 90;
// Questions this similar (word-shingle Jaccard) are one question asked twice.
const DUPLICATE_THRESHOLD = 0.85;

/** The first two items of a perspective's focus ("rules, standards, … concerning X" → "rules and standards"). */
function angleOf(perspective: { name: string; focus: string }): string {
  const items = focusItems(perspective.focus);
  return items.length > 0 ? clip(items.slice(0, 2).join(' and '), 120) : `the view of ${perspective.name.toLowerCase()}`;
}

/**
 * The task a how-to question asks to do: "How do I read a file line by line in Node.js?" → "read a file line by line in
 * Node.js". Undefined for other questions. Its sub-questions name the task, not a noun phrase picked out of it ("file
 * line" made "How does file line work?").
 */
export function howToTask(question: string): string | undefined {
  const task =
    /^\s*(?:how\s+(?:do|can|could|should|would|might)\s+(?:i|we|you|one)|how\s+to|what\s+is\s+the\s+(?:best\s+|right\s+|simplest\s+)?way\s+to)\s+(.+?)[?.!\s]*$/i.exec(
      question,
    )?.[1];
  if (task === undefined || task.split(/\s+/).length < 2 || /[?]/.test(task)) return undefined;
  return task.replace(/\b(?:my|our)\b/gi, 'a');
}

function perspectiveQuestion(
  p: { name: string; focus: string },
  focus: string,
  tool: boolean,
  task: string | undefined,
  used: Set<number>,
): string {
  const text = `${p.name} ${p.focus.split(/\s+concerning\b/)[0]}`;
  // A second perspective of the same kind ("Regulator 2") takes the next aspect it matches, so it asks something new.
  const matching = ASPECTS.map((a, i) => (a.cue.test(text) ? i : -1)).filter((i) => i >= 0);
  const pick = matching.find((i) => !used.has(i));
  if (pick === undefined) return task ? ANGLE_TASK(angleOf(p), task) : ANGLE_FOCUS(angleOf(p), focus);
  used.add(pick);
  const aspect = ASPECTS[pick]!;
  if (task && aspect.askTask) return aspect.askTask(task);
  return tool ? aspect.askTool(focus) : aspect.ask(focus);
}

/**
 * Sub-questions from the question's own parts: each clause it asks ("what caused X", "how large was it") becomes a
 * question with its pronouns resolved, then each perspective asks its aspect of the question's focus, then the
 * reviewer's requests. The main question comes first at priority 100.
 */
export function questionArchitectOffline(input: QuestionArchitectInput): QuestionArchitectOutput {
  const main = normalizeWhitespace(input.question);
  const parts = questionParts(main);
  const anchor = input.topics[0] ?? topicPhrases(main, 1)[0] ?? parts.focus;
  const candidates: { perspectiveId: string | null; text: string; priority: number }[] = [
    { perspectiveId: null, text: clip(main, 2000), priority: MAIN_PRIORITY },
  ];

  if (input.feedback) {
    for (const phrase of feedbackPhrases(input.feedback, 2)) {
      const about = phrase === anchor ? anchor : `${phrase} in relation to ${anchor}`;
      candidates.push({ perspectiveId: null, text: `What does the evidence say about ${about}?`, priority: FEEDBACK_PRIORITY });
    }
  }
  if (parts.clauses.length > 1) {
    parts.clauses.forEach((c, i) => candidates.push({ perspectiveId: null, text: clip(c, 2000), priority: CLAUSE_PRIORITY - i }));
  }
  const used = new Set<number>();
  const tool = asksAboutTool(main);
  const task = tool ? howToTask(main) : undefined;
  input.perspectives.forEach((p, i) => {
    candidates.push({
      perspectiveId: p.id,
      text: clip(perspectiveQuestion(p, parts.focus, tool, task, used), 2000),
      priority: Math.max(10, PERSPECTIVE_PRIORITY - 2 * i),
    });
  });

  const unique = candidates.filter((c, i) => candidates.findIndex((d) => d.text.toLowerCase() === c.text.toLowerCase()) === i);
  const groups = groupNearDuplicates(
    unique.map((c, i) => ({ id: String(i), text: c.text })),
    DUPLICATE_THRESHOLD,
  );
  return { questions: groups.map((g) => unique[Number(g[0])]) };
}

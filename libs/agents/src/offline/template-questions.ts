import { ANGLE_FOCUS, ANGLE_TASK, ASPECTS } from './roles/question-architect';
import { BASIC, DEEPER } from './follow-up-templates';

/*
 * The questions the offline planner builds from templates (an analyst's aspect of the question's focus, the research
 * loop's follow-ups) are search angles: "How is Arvenna measured, and what mechanisms explain it?" names no finding as
 * a heading, and, left open, no gap a reader asked about (decision 0166). One test for both, built from the templates
 * themselves, so a template added or reworded is recognised without a second list to keep.
 */

const SLOT = '\u0000';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template's text with its slots as "anything" (each a group), whole and case-insensitive. */
function patternOf(template: (...slots: string[]) => string, slots: number): RegExp {
  const parts = template(...Array.from({ length: slots }, () => SLOT)).split(SLOT);
  return new RegExp(`^${parts.map(escape).join('(.+)')}$`, 'i');
}

const TEMPLATES: readonly RegExp[] = [
  ...ASPECTS.flatMap((a) => [a.ask, a.askTool, ...(a.askTask ? [a.askTask] : [])].map((t) => patternOf(t, 1))),
  patternOf(ANGLE_FOCUS, 2),
  patternOf(ANGLE_TASK, 2),
  ...[...BASIC, ...DEEPER].map((t) => patternOf(t.ask, 1)),
];

/** Whether a question or heading is one of the offline planner's templates, whatever its slots hold. */
export function templateQuestion(text: string): boolean {
  return templateSlot(text) !== undefined;
}

/**
 * What a template question asks about: its last slot ("What figures are reported for the construction cost of the
 * bridge?" → "the construction cost of the bridge"); undefined for any other question. A template's own words are no
 * topic: "How is X measured, and what mechanisms explain it?" gave the follow-up "What figures are reported for
 * mechanisms explain?" (velora-recall q13; decision 0169).
 */
export function templateSlot(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  for (const p of TEMPLATES) {
    const m = p.exec(t);
    if (m) return m.at(-1);
  }
  return undefined;
}

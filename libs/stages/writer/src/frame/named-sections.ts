import { contentStems } from '@dossier/agents';

/** A section is named when the feedback has this share of its title's content words (or its number, or its title). */
const TITLE_SHARE = 0.6;

/**
 * The sections a reviewer's feedback names, by position: "section 2", the title itself, or most of the title's words
 * ("the irrigation section is too thin" names "Irrigation Abstraction").
 */
export function sectionsNamedIn(feedback: string, titles: readonly string[]): number[] {
  const text = feedback.toLowerCase();
  const words = new Set(contentStems(feedback));
  const numbered = new Set([...text.matchAll(/\bsection\s+(\d+)\b/g)].map((m) => Number(m[1]) - 1));
  return titles.flatMap((title, i) => {
    if (numbered.has(i) || text.includes(title.toLowerCase())) return [i];
    const stems = [...new Set(contentStems(title))];
    if (stems.length === 0) return [];
    const share = stems.filter((s) => words.has(s)).length / stems.length;
    return share >= TITLE_SHARE ? [i] : [];
  });
}

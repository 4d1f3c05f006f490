import { statementStems } from './statement-terms';

/*
 * One theme per paragraph (issue 25 item 4, decision 0127). A source that gives a section one sentence has no passage
 * of its own; put together in the order they came, such sentences made a paragraph of leftovers ("Because the northern
 * shore is very flat …", "The lake fell in the dry summer of 2015 …", a timeline entry, "The growers' association
 * notes that figures above six metres …"). Each is placed with the paragraph whose theme it shares — the content words
 * of the paragraph besides the section title's; the rest share a paragraph as before, and one left alone is kept only
 * when it answers the section's question (decision 0112).
 */

/** A sentence joins a paragraph when they share at least this many content words besides the title's. */
export const MIN_SHARED_THEME = 2;

/** The content words of a text that say what it is about within its section: not the title's, not figures. */
export function themeOf(text: string, title: ReadonlySet<string>): Set<string> {
  return new Set([...statementStems(text)].filter((t) => !title.has(t) && !/\d/.test(t)));
}

/**
 * Where each loose sentence goes: the index of the paragraph (of `paragraphs`) whose theme it shares most, at least
 * `min` words (MIN_SHARED_THEME unless said), among those with room (fewer than `room` sentences); the earlier
 * paragraph on a tie.
 * Otherwise null.
 */
export function themeHome(
  sentence: string,
  paragraphs: readonly (readonly string[])[],
  title: ReadonlySet<string>,
  room: number,
  min = MIN_SHARED_THEME,
): number | null {
  const own = themeOf(sentence, title);
  let best: { at: number; shared: number } | null = null;
  paragraphs.forEach((p, at) => {
    if (p.length >= room) return;
    const theme = themeOf(p.join(' '), title);
    const shared = [...own].filter((t) => theme.has(t)).length;
    if (shared >= min && (best === null || shared > best.shared)) best = { at, shared };
  });
  return best === null ? null : (best as { at: number; shared: number }).at;
}

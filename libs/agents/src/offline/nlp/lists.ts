import { CITATION_MARKER, proseFault, withoutCitationMarkers } from './prose-faults';
import { listMarkerLength, splitExcerpt, type Unit } from './sentences';

/*
 * A list's lead-in and a code example's introduction (issue 25 item 2, decision 0102). A sentence ending in ":" is never
 * quoted alone: followed by list items, it is joined with them into one sentence ("Three reasons are given: corrosion
 * …; the failed load test …; the cost of the repair."); followed by a block of program text, it is quoted with the
 * block shown as code under it. Otherwise it is left out, as before (0046).
 */

/** At most this many items of a list are joined into one sentence: a longer list is not one statement. */
export const MAX_LIST_ITEMS = 8;

/** Whether a sentence introduces what follows it (ends in ":", citation markers aside). */
export function isLeadIn(text: string): boolean {
  return /:["'\u201d\u2019)\]]*$/.test(text.replace(CITATION_MARKER, '').trim());
}

/** A lead-in that is a statement apart from its colon: not boilerplate, not itself a fragment. */
export function leadInReads(text: string): boolean {
  const shown = withoutCitationMarkers(text);
  return isLeadIn(shown) && proseFault(shown.replace(/:(["'\u201d\u2019)\]]*)$/, '.$1')) === null;
}

/** The list items right after unit `at` (its lead-in), at most MAX_LIST_ITEMS; none when the list is longer. */
export function itemsAfter(units: readonly Unit[], at: number): Unit[] {
  const items: Unit[] = [];
  for (let i = at + 1; i < units.length && units[i]!.kind === 'list-item'; i++) items.push(units[i]!);
  return items.length > MAX_LIST_ITEMS ? [] : items;
}

/** One item as a clause of the joined sentence: without its bullet, its closing ";", "," or "." and a trailing "and"/"or". */
function itemClause(item: string): string {
  return withoutCitationMarkers(item.slice(listMarkerLength(item)))
    .replace(/\s+/g, ' ')
    .replace(/(?:[;,]\s*(?:and|or))?\s*[;,.]?\s*$/i, '')
    .replace(/\s+(?:and|or)$/i, '')
    .trim();
}

/**
 * The lead-in and its items as one sentence, or null when it does not read as one (an item that is empty or itself a
 * paragraph of sentences, boilerplate in the lead-in).
 */
export function joinedList(leadIn: string, items: readonly string[]): string | null {
  if (items.length === 0 || !leadInReads(leadIn)) return null;
  // A list whose last item ends in "," or ";" goes on somewhere the excerpt does not reach: it is cut, not whole.
  if (/[,;:]["'\u201d\u2019)\]]*$/.test(withoutCitationMarkers(items[items.length - 1]!).trim())) return null;
  const clauses = items.map(itemClause);
  if (clauses.some((c) => c.length === 0 || /[.!?]\s+\p{Lu}/u.test(c))) return null;
  return `${withoutCitationMarkers(leadIn).replace(/\s+/g, ' ')} ${clauses.join('; ')}.`;
}

/**
 * A code block as its source lays it out: its first line indented as the excerpt has it (the unit starts at its first
 * character), then the indentation all its lines share taken off — a literal block indented under its lead-in
 * (decision 0137) reads from the margin, its inner indentation kept.
 */
function asWritten(excerpt: string, start: number, code: string): string {
  const lineStart = excerpt.lastIndexOf('\n', start - 1) + 1;
  const lead = excerpt.slice(lineStart, start);
  const lines = (/^[ \t]*$/.test(lead) ? lead + code : code).split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length))).join('\n');
}

/**
 * The code a report sentence introduces: the sentence ends in ":" and one of its cited excerpts holds a lead-in followed
 * by a code block (the lead-in sharing most of the sentence's words: it may have been attributed, 0102). The block is
 * verbatim, as the excerpt holds it; null when there is none.
 */
export function codeIntroduced(sentence: string, excerpts: readonly string[]): string | null {
  if (!isLeadIn(sentence)) return null;
  const words = (t: string) => new Set(t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const wanted = words(sentence);
  let best: { code: string; share: number } | null = null;
  for (const excerpt of excerpts) {
    const units = splitExcerpt(excerpt);
    units.forEach((u, i) => {
      const next = units[i + 1];
      if (u.kind !== 'sentence' || next?.kind !== 'code' || !isLeadIn(u.text)) return;
      const have = words(u.text);
      const share = [...wanted].filter((w) => have.has(w)).length / Math.max(1, wanted.size);
      if (share >= 0.6 && (best === null || share > best.share)) best = { code: asWritten(excerpt, next.start, next.text), share };
    });
  }
  return (best as { code: string } | null)?.code ?? null;
}

/*
 * Checks of a model's answer against its input (docs/architecture.md §2.1): a model may cite only the evidence it was given, by id,
 * never a URL, and an excerpt is a verbatim passage of the source, with offsets taken from the source itself.
 */

const URL_LIKE = /\bhttps?:\/\/|\bwww\.[a-z0-9-]+\.[a-z]/i;

/** Issues for cited sentences: unknown evidence ids and URLs in the text. */
export function citationIssues(
  sentences: readonly { text: string; evidenceIds: readonly string[] }[],
  known: ReadonlySet<string>,
  where: string,
): string[] {
  const issues: string[] = [];
  sentences.forEach((s, i) => {
    const unknown = s.evidenceIds.filter((id) => !known.has(id));
    if (unknown.length > 0) issues.push(`${where} ${i + 1} cites evidence ids that were not given: ${unknown.slice(0, 5).join(', ')}`);
    if (URL_LIKE.test(s.text)) issues.push(`${where} ${i + 1} contains a URL; cite evidence ids in evidenceIds instead`);
  });
  return issues;
}

export interface CleanedSentences<S> {
  issues: string[];
  /** The sentences that may stay: unknown ids removed; a sentence left citing nothing, or holding a URL, dropped. */
  kept: S[];
  dropped: number;
}

/** citationIssues, and the sentences without what is wrong. */
export function cleanCitedSentences<S extends { text: string; evidenceIds: readonly string[] }>(
  sentences: readonly S[],
  known: ReadonlySet<string>,
  where: string,
): CleanedSentences<S> {
  const issues = citationIssues(sentences, known, where);
  const kept: S[] = [];
  let dropped = 0;
  for (const s of sentences) {
    const ids = s.evidenceIds.filter((id) => known.has(id));
    dropped += s.evidenceIds.length - ids.length;
    if (URL_LIKE.test(s.text) || (ids.length === 0 && s.evidenceIds.length > 0)) {
      dropped++;
      continue;
    }
    kept.push(ids.length === s.evidenceIds.length ? s : { ...s, evidenceIds: ids });
  }
  return { issues, kept, dropped };
}

/** Ids cited that are not among the known ones. */
export function unknownIdIssues(ids: readonly string[], known: ReadonlySet<string>, what: string): string[] {
  const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
  return unknown.length > 0 ? [`${what} ids that were not given: ${unknown.slice(0, 5).join(', ')}`] : [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where `excerpt` occurs in `source`: exactly (the occurrence nearest `hint`), else with any run of whitespace
 * matching any other (models reflow line breaks). Null when it is not a verbatim passage.
 */
export function locateExcerpt(source: string, excerpt: string, hint = 0): { start: number; end: number } | null {
  const trimmed = excerpt.trim();
  if (!trimmed) return null;
  let best: number | null = null;
  for (let at = source.indexOf(trimmed); at >= 0; at = source.indexOf(trimmed, at + 1)) {
    if (best === null || Math.abs(at - hint) < Math.abs(best - hint)) best = at;
  }
  if (best !== null) return { start: best, end: best + trimmed.length };
  const words = trimmed.split(/\s+/).map(escapeRegExp);
  if (words.length > 400) return null;
  const match = new RegExp(words.join('\\s+')).exec(source);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

/** A body section needs at least this many sentences to stand under a heading of its own (issue 25 item 3). */
export const MIN_SECTION_SENTENCES = 2;

const count = (s: { paragraphs: readonly { sentences: readonly unknown[] }[] }) => s.paragraphs.reduce((n, p) => n + p.sentences.length, 0);

/**
 * Body sections in the order given, with each section of fewer than MIN_SECTION_SENTENCES sentences merged into its
 * neighbour: its paragraphs go to the end of the section before it, or, for the first, to the start of the next
 * (decision 0089). Sections `keep` names (interview memos: each analyst's interview keeps its heading) are never
 * merged, nor merged into; sections without sentences are left where they are, and so is a short section that no
 * section can take. The frame step and the renderer apply
 * the same rule to the same verified sections, so the introduction names the sections the report shows.
 */
export function mergeShortSections<S extends { title: string; paragraphs: readonly { sentences: readonly unknown[] }[] }>(
  sections: readonly S[],
  keep: (section: S) => boolean = () => false,
): S[] {
  const out: S[] = [];
  // Short sections with nothing before them to join: in place until a section after them takes them.
  let waiting: S[] = [];
  for (const section of sections) {
    const n = count(section);
    if (n === 0 || keep(section)) {
      out.push(section);
      continue;
    }
    if (n < MIN_SECTION_SENTENCES) {
      const before = out.findLastIndex((s) => count(s) > 0 && !keep(s) && !waiting.includes(s));
      if (before >= 0) out[before] = { ...out[before]!, paragraphs: [...out[before]!.paragraphs, ...section.paragraphs] };
      else {
        waiting.push(section);
        out.push(section);
      }
      continue;
    }
    if (waiting.length === 0) out.push(section);
    else {
      const taken = waiting;
      out.splice(0, out.length, ...out.filter((s) => !taken.includes(s)));
      out.push({ ...section, paragraphs: [...taken.flatMap((w) => w.paragraphs), ...section.paragraphs] });
      waiting = [];
    }
  }
  return out;
}

/**
 * How a report paragraph is laid out, the same in every format: its sentences in blocks. A block ends after a sentence
 * that introduces code (the code follows it, decision 0102) and where the term the sentences describe changes (decision
 * 0153): "-u, --include-untracked" leads the sentences quoted from its description, as a manual's definition list does,
 * and a sentence under no term does not read as part of the entry before it.
 */
export interface ParagraphBlock<S> {
  /** The term the block's sentences describe, shown before them. */
  term?: string;
  sentences: S[];
  /** Code the block's last sentence introduces, shown under the block. */
  code?: string;
}

export function paragraphBlocks<S extends { term?: string | undefined; code?: string | undefined }>(
  sentences: readonly S[],
): ParagraphBlock<S>[] {
  const blocks: ParagraphBlock<S>[] = [];
  let open: ParagraphBlock<S> | null = null;
  for (const sentence of sentences) {
    if (open === null || open.code !== undefined || open.term !== sentence.term) {
      open = { ...(sentence.term ? { term: sentence.term } : {}), sentences: [] };
      blocks.push(open);
    }
    open.sentences.push(sentence);
    if (sentence.code) open.code = sentence.code;
  }
  return blocks;
}

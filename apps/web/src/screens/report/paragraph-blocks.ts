import type { ReportJson } from '../../api/types';

type Sentence = ReportJson['sections'][number]['paragraphs'][number]['sentences'][number];

/**
 * A paragraph's sentences in blocks, as the md, html and pdf renderers lay them out (libs/render/src/paragraph-blocks.ts;
 * the web bundle takes nothing but types from the libraries): a block ends after a sentence that introduces code
 * (decision 0102) and where the term the sentences describe changes (0153).
 */
export function paragraphBlocks(sentences: readonly Sentence[]): { term?: string; sentences: Sentence[]; code?: string }[] {
  const blocks: { term?: string; sentences: Sentence[]; code?: string }[] = [];
  for (const sentence of sentences) {
    const open = blocks.at(-1);
    if (open && open.code === undefined && open.term === sentence.term) open.sentences.push(sentence);
    else blocks.push({ ...(sentence.term ? { term: sentence.term } : {}), sentences: [sentence] });
    if (sentence.code) blocks.at(-1)!.code = sentence.code;
  }
  return blocks;
}

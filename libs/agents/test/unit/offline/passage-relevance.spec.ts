import { splitUnits } from '../../../src/offline/nlp/sentences';
import { PassageScorer, passageContexts, queryPhrases } from '../../../src/offline/passage-relevance';

// A manual's option list: each description stands under its term line and does not repeat it.
const MANUAL = [
  'git-reset - Reset current HEAD to the specified state.',
  '--soft',
  'Does not touch the index file or the working tree at all. This leaves all your changed files staged.',
  '--hard',
  'Resets the index and working tree. Any changes to tracked files in the working tree are discarded.',
  'Some further text about the index of the project.',
].join('\n\n');

function scorer(text: string) {
  const units = splitUnits(text);
  const contexts = passageContexts(text, units);
  return { units, contexts, scorer: new PassageScorer(units.map((u, i) => ({ text: u.text, context: contexts[i]! }))) };
}

/** As the evidence curator ranks them: sentences of five words or more are candidates, every unit gives context. */
function ranked(text: string, query: string): string[] {
  const units = splitUnits(text);
  const contexts = passageContexts(text, units);
  const candidates = units.map((u, i) => ({ text: u.text, context: contexts[i]! })).filter((c) => c.text.split(' ').length >= 5);
  return new PassageScorer(candidates)
    .score(query)
    .sort((a, b) => b.score - a.score)
    .map((h) => candidates[h.index]!.text);
}

describe('passage relevance', () => {
  it('gives a sentence the label it stands under and, within its paragraph, the sentence before it', () => {
    const { units, contexts } = scorer(MANUAL);
    const at = (start: string) => contexts[units.findIndex((u) => u.text.startsWith(start))];
    expect(at('Does not touch')).toBe('--soft');
    expect(at('This leaves')).toBe('--soft\nDoes not touch the index file or the working tree at all.');
    expect(at('Resets the index')).toBe('--hard');
    // A blank line ends the paragraph: the sentence before is not carried over it.
    expect(at('Some further text')).toBe('--hard');
  });

  it('ranks the description under the asked-for term first, though the term is not in its sentence', () => {
    expect(ranked(MANUAL, 'What does --soft do to the index?')[0]).toMatch(/^Does not touch the index file/);
    expect(ranked(MANUAL, 'What does --hard do to the index?')[0]).toMatch(/^Resets the index and working tree/);
  });

  it('scores a phrase of the question higher when its words stand together', () => {
    const text = 'The root logger has level WARNING by default.\n\nThe logger of a module is not the root of the tree.';
    const hits = scorer(text).scorer.score('What level does the root logger have?');
    const [together, apart] = [0, 1].map((i) => hits.find((h) => h.index === i)!.score);
    expect(together).toBeGreaterThan(apart!);
    expect(queryPhrases('What level does the root logger have?')).toEqual([['root', 'logger']]);
  });

  it('counts the question terms a sentence or its context holds, and finds nothing for unrelated words', () => {
    const hits = scorer(MANUAL).scorer.score('soft index');
    const soft = hits.find((h) => h.index === 2)!;
    expect(soft.matched).toBe(2);
    expect(scorer(MANUAL).scorer.score('marmalade orchestra')).toEqual([]);
  });
});

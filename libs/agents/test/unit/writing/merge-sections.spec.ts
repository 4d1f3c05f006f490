import { mergeShortSections } from '../../../src';

const section = (title: string, ...sentences: string[]) => ({ title, paragraphs: sentences.length > 0 ? [{ sentences }] : [] });
const shape = (sections: ReturnType<typeof section>[]) => sections.map((s) => [s.title, s.paragraphs.map((p) => p.sentences.join(' | '))]);

describe('mergeShortSections (issue 25 item 3, decision 0089)', () => {
  it('a section of one sentence joins the section before it, as a paragraph of its own', () => {
    const out = mergeShortSections([section('A', 'a1', 'a2'), section('B', 'b1'), section('C', 'c1', 'c2')]);
    expect(shape(out)).toEqual([
      ['A', ['a1 | a2', 'b1']],
      ['C', ['c1 | c2']],
    ]);
  });

  it('a first section of one sentence opens the next one; sections of two or more and empty ones stay', () => {
    const out = mergeShortSections([section('A', 'a1'), section('Empty'), section('B', 'b1', 'b2')]);
    expect(shape(out)).toEqual([
      ['Empty', []],
      ['B', ['a1', 'b1 | b2']],
    ]);
  });

  it('never merges a kept section (an interview’s) nor merges into one; alone, a short section stays', () => {
    const keep = (s: { title: string }) => s.title.startsWith('Memo');
    expect(shape(mergeShortSections([section('Memo X', 'm1'), section('B', 'b1')], keep))).toEqual([
      ['Memo X', ['m1']],
      ['B', ['b1']],
    ]);
    expect(shape(mergeShortSections([section('A', 'a1')]))).toEqual([['A', ['a1']]]);
    // A short first section before interview sections only: nothing can take it, so it stays first.
    expect(shape(mergeShortSections([section('A', 'a1'), section('Memo X', 'm1', 'm2'), section('Memo Y', 'y1')], keep))).toEqual([
      ['A', ['a1']],
      ['Memo X', ['m1 | m2']],
      ['Memo Y', ['y1']],
    ]);
  });
});

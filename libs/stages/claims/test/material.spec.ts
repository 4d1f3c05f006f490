import { hasFigure, isDated, questionMaterial } from '../src/moderate/material';

describe('question material (issue 25 item 3)', () => {
  it.each([
    ['The level fell 4.2 m between 2015 and 2024.', true],
    ['Changed in version 3.2: added the timeout parameter.', true],
    ['New in version 3.9.', true],
    ['Use git reset --soft HEAD~1 to undo the last commit.', false],
    ['See section 4.2 for the options.', false],
  ])('%s is dated: %s', (text, dated) => expect(isDated(text)).toBe(dated));

  it.each([
    ['The level fell 4.2 m between 2015 and 2024.', true],
    ['Abstraction explains about 60% of the deficit.', true],
    ['The repair cost $4.5 million.', true],
    ['Reflog entries older than 90 days are pruned.', true],
    ['Over 12,000 packs were recalled.', true],
    ['In 2019 the authority changed its rules.', false],
    ['See section 4.2 and step 3 of the guide.', false],
    ['The 2 modes differ in what they reset.', false],
  ])('%s has a figure: %s', (text, figure) => expect(hasFigure(text)).toBe(figure));

  it('counts distinct sources per question, with what the questions it refines found', () => {
    const questions = [
      { id: 'Q1', parentId: null },
      { id: 'F1', parentId: 'Q1' },
      { id: 'Q2', parentId: null },
    ];
    const found = [
      { questionId: 'Q1', source: 'a', text: 'The level fell 4.2 m from 2015 to 2024.' },
      { questionId: 'Q1', source: 'a', text: 'Another excerpt of the same page.' },
      { questionId: 'F1', source: 'b', text: 'In 2019 the rules changed.' },
      { questionId: 'Q2', source: 'c', text: 'No dates, no figures.' },
    ];
    const m = questionMaterial(questions, found);
    expect(m.get('Q1')).toEqual({ sources: 1, dated: 1, figures: 1 });
    expect(m.get('F1')).toEqual({ sources: 2, dated: 2, figures: 1 });
    expect(m.get('Q2')).toEqual({ sources: 1, dated: 0, figures: 0 });
  });
});

import { paragraphBlocks as renderedBlocks } from '@dossier/render';
import { paragraphBlocks } from '../src/screens/report/paragraph-blocks';

// The web page lays a paragraph out as the md, html and pdf files do (decisions 0102, 0153): it keeps its own copy of the
// rule (its bundle takes only types from the libraries), and this holds the two to the same blocks.
describe("the web app's paragraph blocks", () => {
  const s = (text: string, extra: { term?: string; code?: string } = {}) => ({ text, evidenceIds: ['E1'], ...extra });
  const paragraph = [
    s('Use git stash when you want a clean working directory.'),
    s('When used with the push and save commands, all untracked files are also stashed.', { term: '-u, --include-untracked' }),
    s('When used with the show command, show the untracked files.', { term: '-u, --include-untracked' }),
    s('Like pop, but do not remove the state from the stash list.', { term: 'apply [<stash>]' }),
    s('You can stash your changes away like this:', { term: 'apply [<stash>]', code: '$ git stash' }),
    s('Then pop them.', { term: 'apply [<stash>]' }),
    s('A stash entry is a commit.'),
  ];

  it('a block per term and after each code example, the same as the report files', () => {
    const blocks = paragraphBlocks(paragraph);
    expect(blocks.map((b) => [b.term ?? null, b.sentences.length, b.code ?? null])).toEqual([
      [null, 1, null],
      ['-u, --include-untracked', 2, null],
      ['apply [<stash>]', 2, '$ git stash'],
      ['apply [<stash>]', 1, null],
      [null, 1, null],
    ]);
    expect(blocks).toEqual(renderedBlocks(paragraph));
  });
});

import { namedByQuestion, pagesNamedMostPrecisely } from '../../../src/offline/page-names';

describe('the pages a question names (decisions 0111, 0131)', () => {
  it('names a manual page whose lower-case name is a phrase of the question, never a capitalised title', () => {
    expect(namedByQuestion('git-restore(1) Manual Page', 'How do I unstage a file with git restore?')).toBe(true);
    expect(namedByQuestion('subprocess --- Subprocess management', 'How do I use subprocess.run?')).toBe(true);
    expect(namedByQuestion('Lake Varen: Frequently Asked Questions', 'How far did Lake Varen fall?')).toBe(false);
  });

  it('keeps the most precisely named: git(1) is named in passing by a question about git reflog', () => {
    const titles = ['git(1) Manual Page', 'git-reflog(1) Manual Page', 'git-gc(1) Manual Page', 'git-commit(1) Manual Page'];
    const question = 'For how long can git reflog still find it, and when does git gc delete unreachable objects?';
    expect([...pagesNamedMostPrecisely(titles, question)].sort()).toEqual(['git-gc(1) Manual Page', 'git-reflog(1) Manual Page']);
    // A question that names only git keeps git(1).
    expect([...pagesNamedMostPrecisely(titles, 'How does git store objects?')]).toEqual(['git(1) Manual Page']);
  });
});

import { describedTerms } from '../../../src/offline/described-terms';

// A manual as the corpus ingests it (git's HTML pages as text): term lines, each described by the paragraphs under it.
const MANUAL = [
  'git-stash - Stash the changes in a dirty working directory away',
  'COMMANDS',
  'pop [--index] [-q|--quiet] [<stash>]',
  'Remove a single stashed state from the stash list and apply it on top of the current working tree state.',
  'Applying the state can fail with conflicts; in this case, it is not removed from the stash list.',
  'apply [--index] [-q|--quiet] [<stash>]',
  'Like pop, but do not remove the state from the stash list.',
  'push [-p|--patch] [-S|--staged] [-k|--[no-]keep-index] [-u|--include-untracked] [(-m|--message) <message>] [--] [<pathspec>…]',
  'Save your local modifications to a new stash entry and roll them back to HEAD.',
  'OPTIONS',
  '-a',
  '--all',
  'All ignored and untracked files are also stashed and then cleaned up with git clean.',
  '-u',
  '--include-untracked',
  '--no-include-untracked',
  'When used with the push and save commands, all untracked files are also stashed and then cleaned up with git clean.',
  'When used with the show command, show the untracked files in the stash entry as part of the diff.',
  '--only-untracked',
  'Show only the untracked files in the stash entry as part of the diff.',
  '--fixup=[(amend|reword):]<commit>',
  'Create a new commit which "fixes up" <commit> when applied with git rebase --autosquash.',
  'CONFIGURATION',
  'stash.showIncludeUntracked',
  'If this is set to true, the git stash show command will show the untracked files of a stash entry.',
  'MERGE STRATEGIES',
  'ort',
  'This is the default merge strategy when pulling or merging one branch.',
  'subtree',
  'This is a modified ort strategy.',
  'With the strategies that use 3-way merge (including the default, ort), a change reverted on one branch is present in the result.',
  'Some people find this behavior confusing.',
  'DEFAULT BEHAVIOR',
  'json.dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None)',
  'Serialize obj to a JSON formatted str using this conversion table.',
  'Kessmark Regional Water Authority, Hydrometry Section',
  'The level of the lake fell by 4.2 m between 2015 and 2024.',
  'DESCRIPTION',
  'Use git stash when you want to record the current state of the working directory and the index.',
].join('\n\n');

function termOf(sentence: string): string | null {
  const start = MANUAL.indexOf(sentence);
  if (start < 0) throw new Error(`not in the manual: ${sentence}`);
  return describedTerms(MANUAL, [{ start, end: start + sentence.length }])[0]!;
}

describe('the term a quoted sentence describes (decision 0153)', () => {
  it("a sub-command's description, every paragraph of it, stands under its synopsis", () => {
    expect(termOf('Remove a single stashed state')).toBe('pop [--index] [-q|--quiet] [<stash>]');
    expect(termOf('Applying the state can fail with conflicts')).toBe('pop [--index] [-q|--quiet] [<stash>]');
    expect(termOf('Like pop, but do not remove the state')).toBe('apply [--index] [-q|--quiet] [<stash>]');
  });

  it('a long synopsis is shown up to its first options, brackets nested', () => {
    expect(termOf('Save your local modifications')).toBe('push [-p|--patch] [-S|--staged] [-k|--[no-]keep-index] …');
  });

  it("an option's term lines are shown together, over each paragraph of its description", () => {
    expect(termOf('All ignored and untracked files')).toBe('-a, --all');
    expect(termOf('When used with the push and save commands')).toBe('-u, --include-untracked, --no-include-untracked');
    expect(termOf('When used with the show command')).toBe('-u, --include-untracked, --no-include-untracked');
    // Its "|" makes the splitter read the line as a table row.
    expect(termOf('Create a new commit which')).toBe('--fixup=[(amend|reword):]<commit>');
  });

  it('a configuration key, a strategy named by one word, a long signature by its name', () => {
    expect(termOf('If this is set to true')).toBe('stash.showIncludeUntracked');
    expect(termOf('This is the default merge strategy')).toBe('ort');
    expect(termOf('Serialize obj to a JSON formatted str')).toBe('json.dumps()');
  });

  it('a term is never longer than report.json allows (300 characters)', () => {
    const page = ['OPTIONS', `--${'x'.repeat(400)}`, 'Does something to everything.'].join('\n\n');
    const [term] = describedTerms(page, [{ start: page.indexOf('Does'), end: page.length }]);
    expect(term!.length).toBeLessThanOrEqual(300);
    expect(term!.startsWith('--xxx')).toBe(true);
  });

  it("a paragraph after a list's last entry is about the list, not that entry", () => {
    expect(termOf('This is a modified ort strategy.')).toBe('subtree');
    expect(termOf('With the strategies that use 3-way merge')).toBeNull();
  });

  it("a reference's constant, and an entry's version notes inside its description (python's rst)", () => {
    const page = [
      'Constants',
      'OP_ALL',
      '   Enables workarounds for various bugs present in other SSL implementations.',
      '   This option is set by default.',
      'assertLogs(logger=None, level=None)',
      '   A context manager to test that at least one message is logged.',
      '   Changed in version 3.3:',
      '      Added the msg keyword argument.',
      '   If given, logger should be a logging.Logger object.  The default is the root logger, which will catch all messages.',
      '   It has two attributes:',
      '   records',
      '      A list of logging.LogRecord objects.',
      '   New in version 3.4.',
      'assertNoLogs(logger=None, level=None)',
      '   A context manager to test that no messages are logged.',
    ].join('\n\n');
    const at = (s: string) => describedTerms(page, [{ start: page.indexOf(s), end: page.indexOf(s) + s.length }])[0];
    expect(at('This option is set by default.')).toBe('OP_ALL');
    expect(at('Added the msg keyword argument.')).toBe('assertLogs(logger=None, level=None)');
    expect(at('The default is the root logger')).toBe('assertLogs(logger=None, level=None)');
    expect(at('A list of logging.LogRecord objects.')).toBe('records');
  });

  it('no term under a heading or a byline, nor for a sentence the excerpt does not start in', () => {
    expect(termOf('Use git stash when you want')).toBeNull();
    expect(termOf('The level of the lake fell')).toBeNull();
    expect(describedTerms(MANUAL, [{ start: MANUAL.length + 5, end: MANUAL.length + 9 }])).toEqual([null]);
    expect(describedTerms(MANUAL, [])).toEqual([]);
  });
});

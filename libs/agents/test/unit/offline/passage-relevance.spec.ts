import { splitUnits } from '../../../src/offline/nlp/sentences';
import {
  PassageScorer,
  type PassageHit,
  definedLabels,
  excerptContexts,
  headingTitle,
  passageContexts,
  queryPhrases,
} from '../../../src/offline/passage-relevance';

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

/**
 * As the evidence curator scores a text given whole (definitions over paragraphs too): the hit of the candidate that
 * starts with the given words, if it scored.
 */
function hitsFor(text: string, query: string): (start: string) => PassageHit | undefined {
  const units = splitUnits(text);
  const contexts = passageContexts(text, units);
  const defined = definedLabels(units, text);
  const candidates = units
    .map((u, i) => ({ text: u.text, context: contexts[i]!, defines: defined[i] }))
    .filter((c) => c.text.split(' ').length >= 5);
  const hits = new PassageScorer(candidates).score(query);
  return (start) => hits.find((h) => candidates[h.index]!.text.startsWith(start));
}

// A manual page whose warning answers "is it safe?" without one word of the question but the module's name.
const PICKLE = [
  '# pickle - Python object serialization',
  'The pickle module implements binary protocols for serializing and de-serializing a Python object structure.',
  'The pickle module is not secure. Only unpickle data you trust.',
  'It is possible to construct malicious pickle data which will execute arbitrary code during unpickling.',
  'Read the pickled representation of an object from the open file object file and return it.',
  'To load pickle files from a file object, use the load function with the file opened in binary mode.',
].join('\n\n');

describe('passage relevance', () => {
  it('ranks the sentences that answer an intent of the question ("safe": "not secure", "malicious") higher (decision 0149)', () => {
    const safe = ranked(PICKLE, 'Is it safe to load pickle files that I download or receive from users?');
    const load = ranked(PICKLE, 'How do I load pickle files that I download or receive from users?');
    const secure = 'The pickle module is not secure.';
    const malicious = 'It is possible to construct malicious pickle data which will execute arbitrary code during unpickling.';
    const other = 'The pickle module implements binary protocols for serializing and de-serializing a Python object structure.';
    // With the intent, the warning outranks the sentences that share only the module's name with the question; without it, not.
    expect(safe.indexOf(secure)).toBeLessThan(safe.indexOf(other));
    expect(safe.indexOf(malicious)).toBeLessThan(safe.indexOf(other));
    expect(load.indexOf(secure)).toBeGreaterThan(load.indexOf(other) === -1 ? -2 : load.indexOf(other));
  });

  it('finds "subcommands" for a question that writes "sub-commands" (decision 0149)', () => {
    const text = [
      'Many programs split their functionality into a number of subcommands, for example git.',
      'Parsers print help messages with the usage of each argument.',
    ].join('\n\n');
    const hits = new PassageScorer(splitUnits(text).map((u) => ({ text: u.text, context: '' }))).score(
      'How do I add sub-commands with argparse?',
    );
    expect(hits.map((h) => h.index)).toEqual([0]);
  });

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

  it('says which label a sentence defines: the first sentence under a term line or heading, no other', () => {
    const units = splitUnits(MANUAL);
    const defined = definedLabels(units);
    const at = (start: string) => defined[units.findIndex((u) => u.text.startsWith(start))];
    expect(at('Does not touch')).toBe('--soft');
    expect(at('This leaves')).toBeNull();
    expect(at('Resets the index')).toBe('--hard');
    expect(at('Some further text')).toBeNull();
    // Given the text too, an option's description runs on over its paragraphs to the next label (0151); a heading's and
    // another term line's later sentences are not their definition.
    const withText = definedLabels(units, MANUAL);
    const atText = (start: string) => withText[units.findIndex((u) => u.text.startsWith(start))];
    expect(atText('This leaves')).toBe('--soft');
    expect(atText('Resets the index')).toBe('--hard');
    const terms = [
      'Exit codes',
      'The first sentence under the heading.',
      'A second sentence under it.',
      'Mode',
      'It names one.',
      'And this follows it.',
    ];
    const termText = terms.join('\n\n');
    const termUnits = splitUnits(termText);
    expect(definedLabels(termUnits, termText)).toEqual(definedLabels(termUnits));
    expect(definedLabels(termUnits, termText).filter((d) => d !== null)).toEqual(['Exit codes', 'Mode']);
  });

  it('reads an option the question names verbatim, dashes and all, as asked about by name (0151)', () => {
    // Git's --amend: its description's second paragraph answers "how do I fix the message", and the option's passing
    // mentions elsewhere share more of the question's words.
    const text = [
      '--amend',
      'Replace the tip of the current branch by creating a new commit.',
      'The message from the original commit is used as the starting point, instead of an empty message, when no other message is specified.',
      '--only',
      'If this option is specified together with --amend, then no paths need to be specified, which can be used to amend the last commit without committing changes that have already been staged.',
      '--no-edit',
      'For example, git commit --amend --no-edit amends a commit without changing its commit message.',
      '--fixup=amend:<commit>',
      'It creates an amend commit which replaces the log message of the commit with the log message of the amend commit.',
      '--dry-run',
      'Do not create a commit, but show a list of paths that are to be committed.',
      '--no-verify',
      'This option bypasses the pre-commit and commit-msg hooks.',
      '--allow-empty',
      'Usually recording a commit that has the exact same tree as its sole parent commit is a mistake.',
      '--signoff',
      'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
    ].join('\n\n');
    const scores = (question: string) => {
      const of = hitsFor(text, question);
      return (start: string) => of(start)?.score ?? 0;
    };
    const named = scores('How do I fix the message or content of my last commit with git commit --amend?');
    // Without its dashes, "amend" is one word of the question, as before.
    const plain = scores('How do I fix the message or content of my last commit with git commit amend?');
    for (const passing of ['If this option is specified', 'It creates an amend commit']) {
      expect(named('The message from the original')).toBeGreaterThan(named(passing));
      expect(plain('The message from the original')).toBeLessThan(plain(passing));
    }
    expect(named('Replace the tip')).toBeGreaterThan(2 * plain('Replace the tip'));
  });

  it('reads an option whose name answers an intent of the question as naming the question’s word ("--abort" for "back out")', () => {
    const text = [
      '--continue',
      'After a git merge stops due to conflicts you can conclude the merge by running git merge --continue.',
      '--abort',
      'Abort the current conflict resolution process, and try to reconstruct the pre-merge state.',
      'If there were uncommitted worktree changes present when the merge started, these changes may not be reconstructed.',
      '--quit',
      'Forget about the current merge in progress. Leave the index and the working tree as-is.',
    ].join('\n\n');
    const of = hitsFor(text, 'How do I back out of a merge that produced conflicts?');
    expect(of('Abort the current')!.matched).toBeGreaterThanOrEqual(2);
    expect(of('Abort the current')!.score).toBeGreaterThan(of('Forget about')?.score ?? 0);
    // The description's later paragraph says "merge" but not "abort": its label answers "back out" for it.
    expect(of('If there were uncommitted')!.matched).toBe(2);
  });

  it('takes a call signature for a label however long it is, its whole first paragraph for its definition (0141, 0145)', () => {
    const text = [
      'Using the subprocess Module',
      'The recommended approach to invoking subprocesses is to use the run function for all use cases it can handle.',
      'run(args, *, stdin=None, input=None, stdout=None, stderr=None,\\\n    capture_output=False, shell=False, cwd=None, timeout=None, \\\n    check=False, encoding=None, errors=None, text=None, env=None)',
      '   Run the command described by args.  Wait for command to complete, then\n   return a CompletedProcess instance.',
      '   If capture_output is true, stdout and stderr will be captured.',
    ].join('\n\n');
    const units = splitUnits(text);
    const contexts = passageContexts(text, units);
    const defined = definedLabels(units);
    const at = (start: string) => units.findIndex((u) => u.text.startsWith(start));
    expect(defined[at('Run the command')]).toMatch(/^run\(args, \*/);
    expect(contexts[at('Wait for command')]).toMatch(/^run\(args, \*[^]*\nRun the command described by args\.$/);
    // A sentence that ends like one is no signature, short or long.
    expect(defined[at('The recommended approach')]).toBe('Using the subprocess Module');
    // Given the text, the rest of the signature's first paragraph defines it too; the next paragraph does not.
    expect(defined[at('Wait for command')]).toBeNull();
    const withText = definedLabels(units, text);
    expect(withText[at('Run the command')]).toMatch(/^run\(args, \*/);
    expect(withText[at('Wait for command')]).toMatch(/^run\(args, \*/);
    expect(withText[at('If capture_output')]).toBeNull();
  });

  it('ranks the definition of a term the question names above sentences that only repeat the question’s other words', () => {
    const text = [
      '--amend',
      'Replace the tip of the current branch by creating a new commit.',
      '--fixup=<commit>',
      'Create a new commit which fixes up the given commit when it is applied by a rebase with --autosquash.',
      '--reset-author',
      'When used with -C/-c/--amend options, declare that the authorship of the resulting commit now belongs to the committer.',
      '--dry-run',
      'Do not create a commit, but show a list of paths that are to be committed.',
      '--no-verify',
      'This option bypasses the pre-commit and commit-msg hooks of the commit.',
      '--allow-empty',
      'Usually recording a commit that has the exact same tree as its sole parent commit is a mistake.',
    ].join('\n\n');
    const definitions = (text: string) => {
      const units = splitUnits(text);
      const contexts = passageContexts(text, units);
      const defined = definedLabels(units);
      const candidates = units
        .map((u, i) => ({ text: u.text, context: contexts[i]!, defines: defined[i] }))
        .filter((c) => c.text.split(' ').length >= 5);
      return new PassageScorer(candidates)
        .score('How do I change the message of my last commit with git commit --amend?')
        .sort((a, b) => b.score - a.score)
        .map((h) => candidates[h.index]!.text);
    };
    expect(definitions(text)[0]).toBe('Replace the tip of the current branch by creating a new commit.');
  });

  it('finds where excerpts stand in their text: the context of the sentence each ends with, and the label it defines', () => {
    const start = MANUAL.indexOf('Resets the index');
    const end = MANUAL.indexOf('discarded.') + 'discarded.'.length;
    const [first, second] = excerptContexts(MANUAL, [
      { start, end: MANUAL.indexOf('tree.', start) + 'tree.'.length },
      { start, end },
    ]);
    expect(first).toEqual({ context: '--hard', defines: '--hard', heading: null, headingIsTitle: false });
    // An option's later sentences define it too (its description runs on to the next label, 0151).
    expect(second).toEqual({
      context: '--hard\nResets the index and working tree.',
      defines: '--hard',
      heading: null,
      headingIsTitle: false,
    });
  });

  it('finds the heading an excerpt sits under, passing over generic ones for the heading above them (decision 0089)', () => {
    const text = [
      '# Routine Vacuuming',
      '## 24.1.5. Preventing Transaction ID Wraparound Failures',
      'PostgreSQL transaction IDs are 32 bits wide, so they wrap around.',
      '### Notes',
      'A manual VACUUM freezes old rows.',
      '## Summary',
      'Vacuum often.',
    ].join('\n\n');
    const at = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length });
    const [wrap, notes, summary] = excerptContexts(text, [at('so they wrap around.'), at('freezes old rows.'), at('Vacuum often.')]);
    expect(wrap!.heading).toBe('Preventing Transaction ID Wraparound Failures');
    expect(notes!.heading).toBe('Preventing Transaction ID Wraparound Failures');
    expect(summary!.heading).toBe('Routine Vacuuming');
    // The document's title names the whole document, not the passage (decision 0102).
    expect([wrap!.headingIsTitle, notes!.headingIsTitle, summary!.headingIsTitle]).toEqual([false, false, true]);
  });

  it('names no section by a source-code line (decision 0149)', () => {
    expect(headingTitle('Source code: Lib/pickle.py')).toBeNull();
    expect(headingTitle('Source code')).toBeNull();
    expect(headingTitle('Restricting globals')).toBe('Restricting globals');
  });

  it('keeps code names whole in a heading, and passes over a heading that is a condition for the one above (decision 0098)', () => {
    expect(headingTitle('### `process.channel`')).toBe('process.channel');
    expect(headingTitle('## `napi_set_instance_data`')).toBe('napi_set_instance_data');
    expect(headingTitle('## *Emphasised* _title_')).toBe('Emphasised title');
    // A condition names a case of the section above it, not a subject: "When X is Y" reads as a sentence.
    expect(headingTitle('### When `importModuleDynamically` is `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`')).toBeNull();
    expect(headingTitle('### If the process was started with --test-only')).toBeNull();
    const text = [
      '# VM (executing JavaScript)',
      '## Support of dynamic `import()` in compilation APIs',
      'The following APIs support an importModuleDynamically option.',
      '### When `importModuleDynamically` is `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`',
      'This gives access to Node.js built-in modules such as fs or http to the code being compiled.',
    ].join('\n\n');
    const at = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length });
    const [ctx] = excerptContexts(text, [at('to the code being compiled.')]);
    expect(ctx!.heading).toBe('Support of dynamic import() in compilation APIs');
  });
});

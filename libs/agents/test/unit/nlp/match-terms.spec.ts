import { headingTerms, intentTerms } from '../../../src/offline/nlp/intent-terms';
import { camelStems, compoundStems, matchStems, queryStems, variantStems } from '../../../src/offline/nlp/match-terms';
import { contentWords } from '../../../src/offline/nlp/tokens';
import { contentStems, stem } from '../../../src/offline/nlp/tokens';

describe('the terms a text is found by (decision 0149)', () => {
  it('finds a page\'s "un" word by the word without its prefix, and a question\'s hyphenated compound by its joined word', () => {
    const v = (text: string) => variantStems(contentWords(text));
    expect(v('Only unpickle data you trust.')).toEqual([stem('pickle')]);
    expect(v('an unsafe default')).toEqual([stem('safe')]);
    expect(matchStems('Only unpickle data you trust.')).toEqual([...contentStems('Only unpickle data you trust.'), stem('pickle')]);
    expect(compoundStems('add sub-commands to a parser')).toEqual([stem('subcommands')]);
    expect(queryStems('add sub-commands to asyncio.TaskGroup')).toEqual([
      ...contentStems('add sub-commands to asyncio.TaskGroup'),
      stem('subcommands'),
      stem('task'),
      stem('group'),
    ]);
    // Each form on one side only: a page's compound and camel-case name stay as written (decision 0149).
    expect(matchStems('sub-commands of a ValueError')).toEqual(contentStems('sub-commands of a ValueError'));
  });

  it('finds a camel-case name by its words, as the outline reads it (decision 0131)', () => {
    expect(camelStems('asyncio.TaskGroup and gc.reflogExpire')).toEqual(['task', 'group', 'reflog', 'expir'].map((w) => stem(w)));
    // One capitalised word, or capitals alone, is no camel-case name.
    expect(camelStems('Python and HTTP and Lake Varen')).toEqual([]);
  });

  it('takes no prefix off a word that is no negation, and joins no compound with a function word', () => {
    // "unit", "union" and "under" leave fewer than four letters; "unless" leaves a stopword.
    expect(variantStems(contentWords('a unit of the union under review unless told'))).toEqual([]);
    expect(compoundStems('a built-in and an up-to-date list')).toEqual([]);
    expect(compoundStems('a thread-safe queue')).toEqual([stem('threadsafe')]);
    expect(compoundStems('nothing to see here')).toEqual([]);
  });

  it('answers a question word that states an intent with the words answers are written in, one way only', () => {
    const safe = intentTerms([stem('safe'), stem('pickle')]);
    expect([...safe.keys()]).toEqual([stem('safe')]);
    expect(safe.get(stem('safe'))).toEqual(expect.arrayContaining([stem('secure'), stem('untrusted'), stem('malicious')]));
    expect(safe.get(stem('safe'))).not.toContain(stem('safe'));
    expect(intentTerms([stem('efficiently')]).get(stem('efficiently'))).toEqual(expect.arrayContaining([stem('performance')]));
    // "When did … first learn …?" is answered by "the earliest incident" (decision 0168).
    expect(intentTerms([stem('first')]).get(stem('first'))).toEqual(expect.arrayContaining([stem('earliest')]));
    // An answer word is no question word: a question that says "risk" or "performance" is not widened.
    expect(intentTerms([stem('risk'), stem('performance'), stem('cost')]).size).toBe(0);
  });

  it('asks an intent by a phrasal verb only when the question says the whole phrase ("back out", not "give back")', () => {
    const backOut = 'How do I back out of a merge that produced conflicts?';
    expect(intentTerms(queryStems(backOut), backOut).get(stem('back'))).toEqual(expect.arrayContaining([stem('abort'), stem('revert')]));
    const rolledBack = 'Can a release that was rolled back be deployed again?';
    expect(intentTerms(queryStems(rolledBack), rolledBack).get(stem('roll'))).toContain(stem('abort'));
    const giveBack = 'Why does json.loads(json.dumps(d)) not give back my dictionary?';
    expect(intentTerms(queryStems(giveBack), giveBack).size).toBe(0);
    // "undo" asks nothing: a question that says it is answered in its tool's own words (decision 0151).
    const undo = 'How do I undo the last commit with git reset?';
    expect(intentTerms(queryStems(undo), undo).size).toBe(0);
    // Without the question's text, a phrase cannot be seen: the stems alone never ask it.
    expect(intentTerms(queryStems(backOut)).size).toBe(0);
  });

  it('asks what someone found only in a question that asks what they found, and answers it under a results heading (decision 0169)', () => {
    const found = 'What did independent laboratory tests of VB-36 packs find?';
    expect(headingTerms(queryStems(found), found).get(stem('find'))).toEqual(
      expect.arrayContaining([stem('results'), stem('conclusions')]),
    );
    expect(intentTerms(queryStems(found), found).get(stem('find'))).toEqual(expect.arrayContaining([stem('results')]));
    const concluded = 'What did the review panel conclude about the fish population?';
    expect(headingTerms(queryStems(concluded), concluded).get(stem('conclude'))).toContain(stem('findings'));
    // Finding something is a task here, not a finding.
    const task = 'How can I find which commit introduced a bug with git bisect?';
    expect(headingTerms(queryStems(task), task).size).toBe(0);
    expect(intentTerms(queryStems(task), task).size).toBe(0);
    // Without the question's text the stems alone never ask it.
    expect(intentTerms(queryStems(found)).size).toBe(0);
  });

  it('answers whether a party accepts something with the words a position is written in (decision 0169)', () => {
    const asked = 'Does the cell maker accept that finding?';
    expect(intentTerms(queryStems(asked), asked).get(stem('accept'))).toEqual(expect.arrayContaining([stem('disagree'), stem('rejects')]));
  });
});

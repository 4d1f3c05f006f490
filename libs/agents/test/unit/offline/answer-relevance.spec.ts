import { namedStems, relevanceModel, settingStems } from '../../../src/offline/answer-relevance';

describe('answer relevance', () => {
  it('finds the terms a question writes as names: options, calls, identifiers, all-capitals words', () => {
    expect([...namedStems('How do I fix my last commit with git commit --amend?')]).toEqual(['amend']);
    expect([...namedStems('How big is the cache of functools.lru_cache by default?')].sort()).toEqual(['cach', 'functool', 'lru']);
    expect([...namedStems('Why does logging.basicConfig() do nothing, and what does frozen=True do?')].sort()).toEqual(
      ['basicconfig', 'frozen', 'log', 'true'].sort(),
    );
    expect([...namedStems('When does VACUUM reclaim storage?')]).toEqual(['vacuum']);
    expect([...namedStems('How far did the water level of Lake Varen fall?')]).toEqual([]);
  });

  it('weighs a named term twice a word of the phrasing that is as rare', () => {
    const statements = ['The option is called amend here.', 'The word fix appears here.', 'Other text about branches.'];
    const model = relevanceModel(statements);
    const question = 'What does --amend fix?';
    expect(model.coverage(question, statements[0]!)).toBeCloseTo(2 / 3);
    expect(model.coverage(question, statements[1]!)).toBeCloseTo(1 / 3);
  });

  it('credits a term the statement defines fully, one in its context in part, as its own words', () => {
    const model = relevanceModel(['Replaces the tip of the current branch.', 'Other text.', 'More text.']);
    const question = 'What does --amend do?';
    const bare = model.coverage(question, 'Replaces the tip of the current branch.');
    const context = model.coverage(question, 'Replaces the tip of the current branch.', { context: '--amend' });
    const defines = model.coverage(question, 'Replaces the tip of the current branch.', { context: '--amend', defines: '--amend' });
    expect(bare).toBe(0);
    expect(context).toBeGreaterThan(bare);
    expect(defines).toBeGreaterThan(context);
  });

  it('credits a question word that states an intent when the statement is written in its answer words (decision 0149)', () => {
    const statements = ['The pickle module is not secure.', 'Write the pickled representation of obj to the open file.', 'Other text.'];
    const model = relevanceModel(statements);
    const question = 'Is it safe to load pickle files?';
    expect(model.coverage(question, 'The pickle module is not secure.')).toBeGreaterThan(
      model.coverage(question, 'The pickle module is documented.'),
    );
    // "Only unpickle data you trust": "unpickle" is found by "pickle".
    expect(model.coverage(question, 'Only unpickle data you trust.')).toBeGreaterThan(
      model.coverage(question, 'Only read data you trust.'),
    );
  });

  it("counts the words of a camelCase name as the statement's terms, as a snake_case name's are (decision 0131)", () => {
    const statements = [
      'If this option is not specified, the expiration time is taken from the configuration setting gc.reflogExpire, which in turn defaults to 90 days.',
      'The reflog covers all recent actions.',
      'Other text about branches.',
      'More text about tags.',
    ];
    const model = relevanceModel(statements);
    const question = 'For how long can git reflog still find a lost commit?';
    // Without the rule the setting's name is one word, "reflogexpire", and the sentence shares no term with the question.
    expect(model.coverage(question, statements[0]!)).toBeGreaterThan(0);
    expect(model.coverage(question, statements[0]!)).toBeCloseTo(model.coverage(question, statements[1]!));
    // A lower-case word is not split, and a name in capitals is left whole.
    expect(model.coverage(question, 'The reflogexpire value.')).toBe(0);
  });
});

describe('the setting of a question', () => {
  it('is the proper names it mentions, not the word that opens it', () => {
    expect([...settingStems("What caused the decline of Lake Varen's water level, and how large was it?")].sort()).toEqual([
      'lake',
      'varen',
    ]);
    expect([...settingStems('When did construction of the Golden Gate Bridge begin?')].sort()).toEqual(['bridg', 'gate', 'golden']);
    expect([...settingStems('How do I undo the last commit with git reset?')]).toEqual([]);
  });

  it('does not count towards topical coverage: a claim naming only the lake covers none of a question about its level', () => {
    const statements = ['The authority released 180,000 fry into Lake Varen.', 'The water level of Lake Varen fell by 4.2 metres.'];
    const model = relevanceModel(statements);
    const question = 'How far did the water level of Lake Varen fall?';
    expect(model.coverage(question, statements[0]!)).toBeGreaterThan(0);
    expect(model.topicalCoverage(question, statements[0]!)).toBe(0);
    // "water" and "level" are the question's topic ("fell" is not "fall" to the stemmer).
    expect(model.topicalCoverage(question, statements[1]!)).toBeGreaterThan(0.3);
  });

  it('counts a sentence under a results heading as answering "what did … find?" (decision 0169)', () => {
    const result = 'Group A (charging at -5 °C): 3 of the 12 packs from the affected weeks went into thermal runaway.';
    const model = relevanceModel([result, 'The recall covers 63,400 packs.', 'Owners should stop charging their packs.']);
    const found = 'What did independent laboratory tests of VB-36 packs find?';
    const underResults = model.coverage(found, result, { context: '3. Results' });
    expect(underResults).toBeGreaterThan(model.coverage(found, result, { context: '2. Method' }));
    // As fully as the sentence's own "found" would.
    expect(underResults).toBeCloseTo(model.coverage(found, `${result} This was found.`, { context: '2. Method' }), 6);
    // Only a question asking what was found reads the heading so.
    const how = 'How were the VB-36 packs tested?';
    expect(model.coverage(how, result, { context: '3. Results' })).toBe(model.coverage(how, result, { context: '2. Method' }));
  });
});

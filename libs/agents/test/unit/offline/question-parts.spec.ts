import { questionParts } from '../../../src/offline/question-parts';
import { asWritten } from '../../../src/offline/topics';

describe('questionParts', () => {
  it('splits a question into its clauses and resolves their pronouns to the first clause’s subject', () => {
    expect(questionParts("What caused the decline of Lake Varen's water level, and how large was it?")).toEqual({
      clauses: ["What caused the decline of Lake Varen's water level?", "How large was the decline of Lake Varen's water level?"],
      focus: "the decline of Lake Varen's water level",
    });
  });

  it("an asker's question naming no tool is about its verb's object, never the asker's own things (0153)", () => {
    expect(
      questionParts(
        'I cloned a repository and its submodule folders are empty. How do I get the submodules, including nested ones, and what state are they checked out in?',
      ),
    ).toEqual({
      clauses: [
        'I cloned a repository and its submodule folders are empty. How do I get the submodules, including nested ones?',
        'What state are the submodules checked out in?',
      ],
      focus: 'the submodules',
    });
    expect(questionParts('Why should I use decimal.Decimal instead of float for money?').focus).toBe('decimal.Decimal');
    expect(questionParts('How do I efficiently keep only the last N items of a stream in Python?').focus).toBe('only the last N items');
    // "my work" names nothing a source documents: the key phrase stands in, as before.
    expect(questionParts('How do I stash my work including new untracked files?').focus).not.toMatch(/my work/);
  });

  it('never takes the asker for the subject: "how do I … with X" is about X', () => {
    expect(questionParts('How can I rotate the nginx logs with logrotate, and how do I test it without waiting a day?')).toEqual({
      clauses: ['How can I rotate the nginx logs with logrotate?', 'How do I test logrotate without waiting a day?'],
      focus: 'logrotate',
    });
    expect(questionParts('Why do I get empty lines when I write rows using the csv module, and how do I stop it?').focus).toBe(
      'the csv module',
    );
    // Naming no tool, the asker's question falls back to its key phrase, never to "I".
    expect(questionParts('How do I make a shallow clone of a big repository, and how do I deepen it later?').focus).not.toMatch(
      /^(?:I|you|we)$/i,
    );
  });

  it('keeps a leading clause that sets the scene with the question it introduces', () => {
    expect(questionParts('In a bare repository, what does git gc prune, and how often should I run git gc?').clauses).toEqual([
      'In a bare repository, what does git gc prune?',
      'How often should I run git gc?',
    ]);
    expect(questionParts('When I rebase a shared branch, how do I warn the others, and can I undo the rebase?').clauses).toEqual([
      'When I rebase a shared branch, how do I warn the others?',
      'Can I undo the rebase?',
    ]);
  });

  it('reads a question that opens with a preposition or follows a statement as a question', () => {
    const parts = questionParts('My disk filled up overnight. For how long does journald keep its logs, and where are they stored?');
    expect(parts.clauses).toEqual(['My disk filled up overnight. For how long does journald keep its logs?', 'Where are journald stored?']);
    expect(parts.focus).toBe('journald');
  });

  it('names the subject as the question writes it', () => {
    // The subject ends at its participle, not at the end of the clause.
    expect(questionParts("Why has Lake Varen's water level dropped so sharply since 2015?").focus).toBe("Lake Varen's water level");
    expect(questionParts('How was the old bridge built?').focus).toBe('the old bridge');
    // With no subject found, the key phrase in the question's own casing and possessive (decision 0105 leaves out an
    // open question that writes a name in lower case).
    expect(questionParts("Lake Varen's water level: what happened?").focus).toBe("Lake Varen's water level");
    expect(asWritten('lake varen water level', "Why has Lake Varen's water level (the reservoir) dropped?")).toBe(
      "Lake Varen's water level",
    );
    expect(asWritten('water table', 'Nothing here matches.')).toBe('water table');
  });

  it('passes over a setting before the question word and ends the subject at a subordinate clause (decision 0145)', () => {
    // Was "the tasks raises" (a key phrase of the whole question): no subject was found after "In asyncio,".
    expect(
      questionParts(
        'In asyncio, what is the difference between asyncio.gather() and asyncio.TaskGroup when one of the tasks raises an exception?',
      ).focus,
    ).toBe('the difference between asyncio.gather() and asyncio.TaskGroup');
    expect(questionParts('What is the deadline for the form when the office is closed?').focus).toBe('the deadline for the form');
    // A preposition right before the question word is no setting: "For how long …" as before.
    expect(questionParts('For how long can git reflog still find a lost commit?').focus).not.toMatch(/^For\b/);
  });

  it('ends a subject after "did"/"does" at its verb, not at its second word (decision 0169)', () => {
    // Were "independent", "the water", "the fire", "the number", "the VB-36" and "the decline".
    expect(questionParts('What did independent laboratory tests of VB-36 packs find?').focus).toBe(
      'independent laboratory tests of VB-36 packs',
    );
    expect(questionParts('How far did the water level of Lake Varen fall between 2015 and 2024?').focus).toBe(
      'the water level of Lake Varen',
    );
    expect(questionParts('What does the fire service advise about charging e-bike batteries at home?').focus).toBe('the fire service');
    expect(questionParts('How did the number of fishing licences for Lake Varen change from 2015 to 2023?').focus).toBe(
      'the number of fishing licences for Lake Varen',
    );
    expect(questionParts("When did the decline of Lake Varen's water level begin?").focus).toBe("the decline of Lake Varen's water level");
    // Its pronoun stands for the whole subject.
    expect(questionParts('How much will the VB-36 recall cost Arvenna, and who will pay for it?').clauses[1]).toBe(
      'Who will pay for the VB-36 recall?',
    );
    // An adverb before the verb is not the subject's; the asker is looked past as before.
    expect(questionParts('When did Arvenna first learn that VB-36 battery packs could overheat?').focus).toBe('Arvenna');
    expect(questionParts('How can an owner tell whether their battery pack is affected?').focus).toBe('an owner');
    expect(questionParts('How do I give a dataclass field a list as its default value?').focus).toBe('a dataclass field');
    // A participle after a determiner qualifies a noun: "an annotated … tag" does not end the subject.
    expect(questionParts('What is the difference between an annotated and a lightweight tag in git?').focus).toBe(
      'the difference between an annotated and a lightweight tag in git',
    );
  });
});

import { datedEntry, readerSentence } from '../../../src/offline/nlp/prose-faults';
import { sidePointer, withoutSidePointer } from '../../../src/offline/nlp/back-reference';
import { briefAnswer } from '../../../src/roles/framer';
import { framer } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';
import { LAKE_QUESTION as question, LEVEL_DISPUTE } from '../../fixtures/lake-varen-disputes';

/* Issue 25 as the demo's report read after 0136 (decision 0138): an introduction that listed two facts instead of
 * answering, a timeline entry standing in a paragraph with its date prefix, a disputed figure without its period. */

describe('a timeline entry in a report', () => {
  it('reads as its statement with the date after it in brackets', () => {
    expect(
      readerSentence("14 February 2025 — The KRWA's Annual Water Resources Report states a 4.2-metre fall in the annual mean level."),
    ).toBe("The KRWA's Annual Water Resources Report states a 4.2-metre fall in the annual mean level (14 February 2025).");
    expect(datedEntry('Autumn 2014 — Construction of the Tessel Canal starts at Hollin Point.')).toBe(
      'Construction of the Tessel Canal starts at Hollin Point (autumn 2014).',
    );
    expect(datedEntry('Winter 2016–17 — The lake partly refills after heavy snowfall.')).toBe(
      'The lake partly refills after heavy snowfall (winter 2016–17).',
    );
  });

  it('drops a date the statement names already, and leaves a sentence with a dash alone', () => {
    expect(datedEntry('2015 — According to the KRWA, the drawdown began in 2015.')).toBe(
      'According to the KRWA, the drawdown began in 2015.',
    );
    expect(datedEntry('The lake fell 4.2 m — more than in any decade on record.')).toBe(
      'The lake fell 4.2 m — more than in any decade on record.',
    );
    expect(datedEntry('In 2015 — a dry year — the lake fell.')).toBe('In 2015 — a dry year — the lake fell.');
  });
});

describe('a disputed figure in the answer in brief', () => {
  it('says its period when the sides cover different periods', () => {
    const level = LEVEL_DISPUTE;
    const [brief] = briefAnswer({ question, disputes: [level] });
    expect(brief!.text).toContain('3.9 metres between 2015 and 2023 on the annual-mean series');
    expect(brief!.text).toContain('4.2 metres between 2015 and 2024 comparing annual means');
  });

  it('gives no period when the sides share one', () => {
    const [brief] = briefAnswer({
      question,
      disputes: [
        {
          sides: [
            'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
            'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
          ],
        },
      ],
    });
    expect(brief!.text).not.toMatch(/between 2015/);
  });
});

describe('the introduction', () => {
  const sections = [
    {
      title: "What caused the decline of Lake Varen's water level?",
      sentences: [
        {
          text: 'Since the mid-2010s the lake has experienced a sharp fall in water level, often called the Varen drawdown.',
          evidenceIds: ['E1'],
        },
        {
          text: 'The regional water authority attributes the decline mainly to lower rainfall and higher evaporation.',
          evidenceIds: ['E2'],
        },
      ],
    },
    {
      title: "How large was the decline of Lake Varen's water level?",
      sentences: [{ text: 'The annual mean level was 212.6 m a.s.l. in 2015 and 208.4 m a.s.l. in 2024.', evidenceIds: ['E3'] }],
    },
  ];

  it('gives each section the finding that answers what it asks', () => {
    const intro = framer.offline({ ...ROLE_INPUTS.framer, question, sections }).introduction;
    expect(intro.filter((s) => s.evidenceIds.length > 0).map((s) => s.text)).toEqual([
      'The regional water authority attributes the decline mainly to lower rainfall and higher evaporation.',
      'The annual mean level was 212.6 m a.s.l. in 2015 and 208.4 m a.s.l. in 2024.',
    ]);
  });

  it("gives no sentence reporting that someone asked, though it shares the question's words (lake-varen q01, 0166)", () => {
    const why = 'Why do the published figures differ?';
    const minutes = [
      { text: 'Harte asked why the two sets of level figures differed.', evidenceIds: ['E4'] },
      { text: 'The authority compares annual means, the university compares seasonal extremes.', evidenceIds: ['E5'] },
    ];
    const intro = framer.offline({
      ...ROLE_INPUTS.framer,
      question: why,
      sections: [{ title: why, sentences: minutes }],
      disputes: [],
    }).introduction;
    expect(intro.filter((s) => s.evidenceIds.length > 0).map((s) => s.text)).toEqual([
      'The authority compares annual means, the university compares seasonal extremes.',
    ]);
  });

  it('announces no findings when the answer in brief leads (the sources disagree on what the question asks)', () => {
    const disputes = [{ sides: ['Irrigation withdrawals did not cause the decline.', 'Irrigation withdrawals caused the decline.'] }];
    const intro = framer.offline({ ...ROLE_INPUTS.framer, question, sections, disputes }).introduction;
    expect(intro.map((s) => s.text)).not.toContain('In brief, the sources state the following.');
    const without = framer.offline({ ...ROLE_INPUTS.framer, question, sections, disputes: [] }).introduction;
    expect(without.map((s) => s.text)).toContain('In brief, the sources state the following.');
  });
});

describe('a side pointer', () => {
  it('is read by sidePointer, and withoutSidePointer states what follows it', () => {
    const s = 'On this basis, the number of fishing licences fell from 1,410 in 2015 to 480 in 2023.';
    expect(sidePointer(s)).toBe('On this basis');
    expect(withoutSidePointer(s)).toBe('The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.');
  });

  it('includes a restating connective with its comma: the statement after it is shown alone', () => {
    const s = 'Put simply, the lake is more than six metres lower at its worst than it was before the decline.';
    expect(sidePointer(s)).toBe('Put simply');
    expect(withoutSidePointer(s)).toBe('The lake is more than six metres lower at its worst than it was before the decline.');
    expect(withoutSidePointer('In other words, it fell further than the authority says.')).toBeNull(); // still points back
    expect(sidePointer('In short supply, the canal water went to the largest farms first.')).toBeNull();
  });
});

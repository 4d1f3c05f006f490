import { proseFault, readerSentence } from '../../../src/offline/nlp/prose-faults';
import { aboutClause, clauseTerms } from '../../../src/offline/roles/outline-architect';
import { briefAnswer, reportOpenQuestions } from '../../../src/roles/framer';
import { evidenceCurator, sectionWriter } from '../../../src/roles';

/* Issue 25 as the demo's report read after 0102 (decision 0105). */
describe('a sentence pointing at what the reader does not see', () => {
  it('is a fragment: items of a list, a figure or a table by number; a parenthetical pointer is an aside', () => {
    expect(
      proseFault(
        'Estimates that add items 1–4 to the metered volume, such as the university\'s 52 million m³, answer a different question ("how much water leaves the lake because of irrigation?") from the metered figure.',
      )?.kind,
    ).toBe('dangling-reference');
    expect(proseFault('Table 3 gives the monthly levels at each gauge.')?.kind).toBe('dangling-reference');
    expect(proseFault('The level fell by 4.2 m between 2015 and 2024 (Figure 2).')).toBeNull();
    expect(proseFault('The lake fell 3 points below the mark in 2018.')).toBeNull();
  });
});

describe('the list a dangling sentence points at', () => {
  it('is the evidence, lead-in and items joined by the writer; the pointer is never a report sentence', () => {
    const text = [
      'Metered abstraction averaged 38 million m³ per year over 2016–2024. The meters do not measure:',
      '',
      '1. seepage from the canal after the intake;',
      '2. evaporation from the canal surface;',
      '3. unlicensed pumping, which by its nature is unknown.',
      '',
      "Estimates that add items 1–3 to the metered volume, such as the university's 52 million m³, answer a different question.",
    ].join('\n');
    const { fragments } = evidenceCurator.offline({
      question: 'Why do the estimates of irrigation withdrawals differ?',
      questions: [],
      source: { id: 's', title: 'Note', text },
      maxFragments: 10,
    });
    const list = fragments.find((f) => f.excerpt.startsWith('The meters do not measure:'));
    expect(list?.statement).toBe(
      "The meters do not measure: seepage from the canal after the intake; evaporation from the canal surface; unlicensed pumping, which by its nature is unknown. Estimates that add items 1–3 to the metered volume, such as the university's 52 million m³, answer a different question.",
    );
    const out = sectionWriter.offline({
      section: { title: 'Estimates', purpose: 'Answers: why do the estimates differ?' },
      claims: [{ id: 'c1', statement: list!.statement, evidenceIds: ['e1'] }],
      evidence: [{ id: 'e1', excerpt: list!.excerpt }],
    } as never);
    expect(out.paragraphs.flatMap((p) => p.sentences.map((s) => s.text))).toEqual([
      'The meters do not measure: seepage from the canal after the intake; evaporation from the canal surface; unlicensed pumping, which by its nature is unknown.',
    ]);
  });
});

describe('a timeline entry', () => {
  // Decision 0138 replaces 0105's dated form (a line of a chronology standing in a paragraph): the date follows the
  // statement in brackets, never "On 9 June 2014, the KRWA grants …" (a present tense after a past date).
  it('reads as the statement with its date after it, not as a present-tense prose sentence', () => {
    expect(readerSentence('9 June 2014 — The KRWA grants abstraction licences for a new irrigation canal.')).toBe(
      'The KRWA grants abstraction licences for a new irrigation canal (9 June 2014).',
    );
  });
});

describe('a sentence belongs to the clause it is about', () => {
  const howLarge = clauseTerms("How large was the decline of Lake Varen's water level?");
  const caused = clauseTerms("What caused the decline of Lake Varen's water level?");
  it('the demo’s off-topic sentences fit neither clause', () => {
    for (const s of [
      'Test netting carried out at six sites in March 2024 found perch in numbers comparable to the authority’s surveys of 2012–2014, and pike at approx. 85% of those levels.',
      "The growers' association's members grow potatoes, sugar beet, seed onions and field vegetables, and since the Tessel Canal came into service they have depended on water from Lake Varen during the summer months.",
      'The hydrology group combined three independent records to build a water balance for Lake Varen from 2010 to 2024.',
      '9 June 2014 — The Kessmark Regional Water Authority (KRWA) grants abstraction licences for a new irrigation canal from Lake Varen to the Tessel Plain, with a ceiling of 45 million m³ per year.',
    ])
      expect({ s, howLarge: aboutClause(s, howLarge), caused: aboutClause(s, caused) }).toEqual({ s, howLarge: false, caused: false });
  });
  it('the answers fit theirs', () => {
    expect(aboutClause('The annual mean level was 212.6 m a.s.l. in 2015 and 208.4 m a.s.l. in 2024.', howLarge)).toBe(true);
    expect(aboutClause('Since the mid-2010s the lake has experienced a sharp fall in water level.', howLarge)).toBe(true);
    expect(aboutClause('The regional water authority attributes the decline mainly to lower rainfall.', caused)).toBe(true);
    expect(aboutClause('The annual mean level was 212.6 m a.s.l. in 2015 and 208.4 m a.s.l. in 2024.', caused)).toBe(false);
  });
  it('the word that asks is not the subject: "caused" and "begin" are the question’s, so a sentence’s "cause" counts (0165)', () => {
    expect([...caused.subject].sort()).toEqual(['declin', 'level']);
    expect([...clauseTerms("When did the decline of Lake Varen's water level begin?").subject].sort()).toEqual(['declin', 'level']);
    const cause = 'A year-long update confirms that the lake has fallen further and that irrigation is the largest single cause.';
    expect(aboutClause(cause, caused)).toBe(true);
  });
  it('a comparative speaks of the size of the noun it qualifies, not of the clause’s subject (0165)', () => {
    const attribution = 'The regional water authority attributes the decline mainly to lower rainfall and higher evaporation.';
    expect({ howLarge: aboutClause(attribution, howLarge), caused: aboutClause(attribution, caused) }).toEqual({
      howLarge: false,
      caused: true,
    });
    expect(aboutClause('Reduced water levels affected spawning grounds in the shallow northern bays.', howLarge)).toBe(true);
    expect(aboutClause('The level is lower than in any year since records began.', howLarge)).toBe(true);
  });
});

describe('the open questions and the answer in brief', () => {
  const question = "What caused the decline of Lake Varen's water level, and how large was it?";
  it('one list: not the main question, not a follow-up, not a template, whatever its slot holds (0166)', () => {
    const open = [
      { id: '1', text: question, parentId: null },
      { id: '2', text: "How is the decline of Lake Varen's water level measured, and what mechanisms explain it?", parentId: null },
      { id: '3', text: 'What are the basic facts about lake varen water level?', parentId: '2' },
      { id: '4', text: 'What has changed recently about lake varen water level?', parentId: null },
      { id: '5', text: "How large was the decline of Lake Varen's water level?", parentId: null },
      { id: '6', text: 'What does Lake Varen recovered cost, and who bears the cost?', parentId: null },
      { id: '7', text: 'How does owners affect the people and communities concerned?', parentId: null },
      { id: '8', text: 'What do rules and standards say about the decline?', parentId: null },
      // A question a model planner wrote, or the reviewer asked for, is named.
      { id: '9', text: 'Did the authority revise its 2015 level series after the new gauge was installed?', parentId: null },
      { id: '10', text: 'What does the evidence say about fish stocks in relation to the decline?', parentId: null },
    ];
    expect(reportOpenQuestions({ question, open, sectionTitles: ["How large was the decline of Lake Varen's water level?"] })).toEqual([
      'Did the authority revise its 2015 level series after the new gauge was installed?',
      'What does the evidence say about fish stocks in relation to the decline?',
    ]);
  });
  it('states what the sources give for the points the question asks about, no side taken', () => {
    const disputes = [
      {
        sides: [
          'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
          'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.',
        ],
      },
      {
        sides: [
          'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
          'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
        ],
      },
      { sides: ['Irrigation withdrawals did not cause the decline.', 'Irrigation withdrawals caused the decline.'] },
    ];
    expect(briefAnswer({ question, disputes })).toEqual([
      {
        // The dispute named with its figures (decision 0127: with their bases when the dispute states them).
        text: 'In brief, the sources disagree on how far the water level fell (4.2 metres and 6.1 metres), as set out under "Where the sources disagree"; they are divided on whether irrigation withdrawals caused the decline.',
        evidenceIds: [],
      },
    ]);
  });
});

describe('a "when" clause that sets the scene for another asking word asks that word (decision 0168)', () => {
  it('reads "When I backport …, how do I record …?" as asking how, and "When did the canal open?" as asking when', () => {
    expect(clauseTerms('When I backport a fix with git cherry-pick, how do I record which commit it came from?').kind.size).toBe(0);
    expect(clauseTerms('When did the Tessel Canal open?').kind.has('began')).toBe(true);
    expect(clauseTerms('When was the recall announced and when was it extended?').kind.has('began')).toBe(true);
  });
});

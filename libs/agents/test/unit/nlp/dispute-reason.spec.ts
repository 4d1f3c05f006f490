import { describeDifference, explainsDifference, namePoint } from '../../../src/offline/nlp/dispute-reason';
import { guardSentence } from '../../../src/verification/guard';

/* A dispute's reason only when a sentence explains the difference; otherwise what differs, in our words (decision 0096). */

const fell39 = "The water level of Lake Varen fell by 3.9 metres between 2015 and 2023, according to the authority's annual-mean series.";
const fell42 = 'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.';
const fell61 = 'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.';
const question = "What caused the decline of Lake Varen's water level, and how large was it?";

describe('explainsDifference: a sentence of the evidence that says why the figures differ', () => {
  it('keeps a real reason: it names how a figure was made and shares the disputed subject', () => {
    const reason =
      'We note that figures above six metres compare the highest spring level with the lowest autumn level, which exaggerates the change.';
    expect(explainsDifference(reason, [fell42, fell61])).toBe(true);
    expect(explainsDifference(reason, [fell39, fell42])).toBe(true);
    // One side's figure names the quantity as well as its subject does.
    const area =
      "The difference from the authority's figure (18%) comes almost entirely from the choice of reference level: mean versus minimum.";
    expect(explainsDifference(area, ['Lake Varen has lost 27% of its surface area.', 'Lake Varen has lost 18% of its surface area.'])).toBe(
      true,
    );
  });

  it.each([
    [
      'a cue of causation about another quantity',
      'Annual irrigation withdrawals from Lake Varen average 38 million cubic metres, and in 2022 our members drew only 31 million cubic metres because of the voluntary savings scheme.',
      [fell39, fell42],
    ],
    [
      'a cause of something else, naming no basis',
      'Because the northern shore is very flat, a small change in level exposes a large area.',
      [fell42, fell61],
    ],
    [
      'a basis that explains other figures (percentages against metres)',
      "The difference from the authority's figure (18%) comes almost entirely from the choice of reference level: mean versus minimum.",
      [fell42, fell61],
    ],
    [
      'another subject',
      'The panel considers that both "2015" and "2017" are defensible answers to different questions: when the lake first fell below its normal range (2015), and when the decline became self-sustaining (2017).',
      [
        'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
        'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.',
      ],
    ],
  ])('refuses %s', (_, sentence, sides) => {
    expect(explainsDifference(sentence, sides)).toBe(false);
  });

  it("refuses a sentence the report's body already states, and a side itself", () => {
    const reason =
      'We note that figures above six metres compare the highest spring level with the lowest autumn level, which exaggerates the change.';
    expect(explainsDifference(reason, [fell42, fell61], new Set([reason]))).toBe(false);
    expect(explainsDifference(fell39, [fell39, fell42])).toBe(false);
  });
});

describe('describeDifference: what differs between the sides, in our own words', () => {
  it('a period difference, in words the guard accepts against the sides', () => {
    const text = describeDifference([fell39, fell42]);
    expect(text).toMatch(/^The two figures cover different periods: one 2015–2023, the other 2015–2024\./);
    expect(text).toContain("Only one of them names its source: the authority's annual-mean series.");
    expect(guardSentence(text, [], { context: [fell39, fell42] }).ok).toBe(true);
  });

  it('what only one side says it includes; a shared period; neither saying how', () => {
    expect(
      describeDifference([
        'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
        'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.',
      ]),
    ).toBe('Only one of the two figures says it includes club permits.');
    expect(
      describeDifference([
        'Annual irrigation withdrawals from Lake Varen average 38 million cubic metres for 2016–2024.',
        'Annual irrigation withdrawals from Lake Varen average 52 million cubic metres (2016–2024, uncertainty about 6 million m³).',
      ]),
    ).toBe('The two figures cover the same period (2016–2024), so the period does not account for the difference between them.');
    expect(describeDifference(['Lake Varen has lost 27% of its surface area.', 'Lake Varen has lost 18% of its surface area.'])).toBe(
      'Neither the 27% nor the 18% figure says over which period or on which basis it was measured.',
    );
  });

  it('statements without figures: a denial, an onset', () => {
    expect(describeDifference(['Irrigation withdrawals caused the decline.', 'Irrigation withdrawals did not cause the decline.'])).toBe(
      'One states that irrigation withdrawals caused the decline; the other denies it.',
    );
    expect(
      describeDifference([
        'The decline started before large-scale irrigation.',
        'The year-on-year decline began in the first full year of large-scale canal operation.',
      ]),
    ).toBe('The two statements place the start of the decline at different times.');
  });
});

describe("namePoint: the point in dispute as a reader names it, from the sides' subject", () => {
  it.each([
    [[fell42, fell61, fell39], 'how far the water level fell'],
    [
      ['Lake Varen has lost 27% of its surface area.', 'Lake Varen has lost 18% of its surface area.'],
      'how much of its surface area Lake Varen has lost',
    ],
    [
      [
        'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
        'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.',
      ],
      'how far the number of fishing licences fell',
    ],
    [
      ['Irrigation withdrawals did not cause the decline of Lake Varen.', 'Irrigation withdrawals caused the decline.'],
      'whether irrigation withdrawals caused the decline',
    ],
    [
      [
        'The decline started before large-scale irrigation.',
        'The year-on-year decline began in the first full year of large-scale canal operation.',
      ],
      'when the decline started',
    ],
  ])('%j → %s', (sides, name) => {
    const named = namePoint(sides, question);
    expect(named).toBe(name);
    // Never a side's figure.
    expect(named).not.toMatch(/\d/);
  });

  it("drops a date from the name, which could be one side's", () => {
    expect(namePoint(['The Tessel Canal opened in 2016.', 'The Tessel Canal opened in 2018.'])).toBe('when the Tessel Canal opened');
    expect(namePoint(['The canal opened to traffic in May 2016.', 'The canal was opened to traffic in 2018.'])).not.toMatch(/\d/);
  });

  it('names what the sides state, not who says it nor the connective a side opens with (lake-varen q08, 0166)', () => {
    const fish = ['But the fish population has not recovered.', 'The authority also says the fish population has recovered.'];
    expect(namePoint(fish, 'Has the fish population of Lake Varen recovered after the restocking programme?')).toBe(
      'whether the fish population has recovered',
    );
    expect(namePoint(['The authority says the canal opened in 2016.', 'The growers say the canal opened in 2018.'])).toBe(
      'when the canal opened',
    );
  });

  it('keeps the place when the question does not name it', () => {
    expect(namePoint([fell42, fell61])).toBe('how far the water level of Lake Varen fell');
  });
});

describe('explainsDifference: a reason speaks of what the figures count or measure (decision 0124)', () => {
  const licences = [
    'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
    'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.',
  ];
  const survey = "The difference between the fish survey's results and the authority's is explained by season and location.";

  it('refuses a sentence sharing only a word the sides use of something else ("fish survey" / "fishing licences")', () => {
    expect(explainsDifference(survey, licences)).toBe(false);
    expect(explainsDifference('The difference between the two licence counts is that the Trust includes club permits.', licences)).toBe(
      true,
    );
  });

  it("keeps it between statements about the fish population, and keeps the water level's reason", () => {
    const fish = [
      'The fish population of Lake Varen has recovered after the restocking programme.',
      'The fish population of Lake Varen has not recovered after the restocking programme.',
    ];
    expect(explainsDifference(survey, fish)).toBe(true);
    expect(
      explainsDifference(
        'We note that figures above six metres compare the highest spring level with the lowest autumn level, which exaggerates the change.',
        [fell42, fell61],
      ),
    ).toBe(true);
  });

  it("refuses a sentence about a figure when the sides give none: lake-varen q08's fish dispute got the surface area's reason (0166)", () => {
    const fish = ['But the fish population has not recovered.', 'The authority also says the fish population has recovered.'];
    const area =
      "The difference from the authority's figure (18%) comes almost entirely from the choice of reference level: mean versus minimum.";
    expect(explainsDifference(area, fish)).toBe(false);
    expect(explainsDifference(area, ['Lake Varen has lost 18% of its surface area.', 'Lake Varen has lost 27% of its surface area.'])).toBe(
      true,
    );
    // A year is no figure of another kind: the reason between statements may date what it explains.
    expect(explainsDifference(survey, fish)).toBe(true);
  });

  it('refuses, from velora-recall, reasons about other things when a name is the subject; keeps the count that explains', () => {
    // A side's name ("Arvenna") is the report's subject, never what a figure counts: here 14 reports.
    const reports = [
      'Arvenna has received 14 confirmed reports of VB-36 packs overheating up to 31 January 2025.',
      'Arvenna has said publicly that it first received a report of a pack overheating in March 2024.',
    ];
    const packs =
      "Arvenna now says 58,700 e-bikes are affected; the Office's notice counts 63,400 packs, because it includes spare packs sold separately.";
    expect(
      explainsDifference(
        'Arvenna counts e-bikes, because each recalled bike is registered to an owner and will be contacted directly.',
        reports,
      ),
    ).toBe(false);
    expect(explainsDifference(packs, reports)).toBe(false);
    expect(
      explainsDifference(
        'The Office did not order a mandatory recall because Arvenna Mobility agreed to a voluntary recall on terms the Office set, including the extension of 3 April 2025.',
        reports,
      ),
    ).toBe(false);
    expect(
      explainsDifference(packs, [
        'The recall covers 41,200 battery packs produced between week 08 and week 41 of 2023.',
        'The recall covers 63,400 battery packs in Norland.',
      ]),
    ).toBe(true);
  });
});

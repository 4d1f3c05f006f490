import { guardSentence, namedEntities, type GuardProblemKind } from '../../../src/verification/guard';

const KRWA =
  'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024. Annual irrigation withdrawals from Lake Varen average 38 million cubic metres. Irrigation withdrawals did not cause the decline.';
const CANAL =
  'The Tessel Canal opened in March 2016. It carries water from the Hollin Point intake to the Tessel Plain, where it supplies some 240 licensed holdings.';
const CLIMATE =
  'Rainfall in the Varen catchment was 12% below average between 2015 and 2024, and open-water evaporation rose by approx. 9% over the same years.';
const DAM = 'The change to the Brennmoor Dam release schedule took effect in April 2016. Brennmoor Hydro releases more water in winter.';
const STUDY =
  'The Eskerford University study found that the lake is not recovering. Seepage losses from the canal reached 6.5 million m³ in 2023.';

/** Sentences that change one fact of their passage: each must fail, for the kind named. */
const CHANGED: readonly { kind: GuardProblemKind; sentence: string; passage: string }[] = [
  // numbers
  { kind: 'number', sentence: 'The water level of Lake Varen fell by 5.2 metres between 2015 and 2024.', passage: KRWA },
  { kind: 'number', sentence: 'Annual irrigation withdrawals from Lake Varen average 48 million cubic metres.', passage: KRWA },
  { kind: 'number', sentence: 'The canal supplies some 420 licensed holdings on the Tessel Plain.', passage: CANAL },
  { kind: 'number', sentence: 'Rainfall in the Varen catchment was 21% below average between 2015 and 2024.', passage: CLIMATE },
  { kind: 'number', sentence: 'Seepage losses from the canal reached 6.8 million m³ in 2023.', passage: STUDY },
  { kind: 'number', sentence: 'Annual irrigation withdrawals from Lake Varen average 38 billion cubic metres.', passage: KRWA },
  // dates
  { kind: 'date', sentence: 'The water level of Lake Varen fell by 4.2 metres between 2012 and 2024.', passage: KRWA },
  { kind: 'date', sentence: 'The Tessel Canal opened in March 2017.', passage: CANAL },
  { kind: 'date', sentence: 'The Tessel Canal opened in May 2016.', passage: CANAL },
  { kind: 'date', sentence: 'The Brennmoor Dam release schedule changed in April 2018.', passage: DAM },
  { kind: 'date', sentence: 'Seepage losses from the canal reached 6.5 million m³ in 2021.', passage: STUDY },
  // units
  { kind: 'unit', sentence: 'The water level of Lake Varen fell by 4.2 feet between 2015 and 2024.', passage: KRWA },
  { kind: 'unit', sentence: 'Annual irrigation withdrawals from Lake Varen average 38 million litres.', passage: KRWA },
  { kind: 'unit', sentence: 'Seepage losses from the canal reached 6.5 million km² in 2023.', passage: STUDY },
  { kind: 'unit', sentence: 'The water level of Lake Varen fell by 4.2 kilometres between 2015 and 2024.', passage: KRWA },
  { kind: 'unit', sentence: 'Rainfall in the Varen catchment was 12 mm below average between 2015 and 2024.', passage: CLIMATE },
  // names
  { kind: 'entity', sentence: 'The water level of Lake Maren fell by 4.2 metres between 2015 and 2024.', passage: KRWA },
  { kind: 'entity', sentence: 'The Orsa Canal opened in March 2016.', passage: CANAL },
  { kind: 'entity', sentence: 'Kessmark Hydro releases more water in winter.', passage: DAM },
  { kind: 'entity', sentence: 'The Varenby University study found that the lake is not recovering.', passage: STUDY },
  { kind: 'entity', sentence: 'Irrigation withdrawals did not cause the decline, according to the KRWA.', passage: KRWA },
  // negations
  { kind: 'negation', sentence: 'Irrigation withdrawals caused the decline.', passage: KRWA },
  { kind: 'negation', sentence: 'The Eskerford University study found that the lake is recovering.', passage: STUDY },
  { kind: 'negation', sentence: 'Brennmoor Hydro does not release more water in winter.', passage: DAM },
  { kind: 'negation', sentence: "Rainfall in the Varen catchment wasn't below average between 2015 and 2024.", passage: CLIMATE },
  { kind: 'negation', sentence: 'The Tessel Canal never opened in March 2016.', passage: CANAL },
];

/** Faithful restatements of their passage: none may fail. */
const FAITHFUL: readonly { sentence: string; passage: string }[] = [
  { sentence: 'Irrigation withdrawals from Lake Varen average 38 million m³ a year.', passage: KRWA },
  { sentence: 'On average, 38,000,000 cubic metres are withdrawn from Lake Varen for irrigation each year.', passage: KRWA },
  { sentence: 'Between 2015 and 2024 the level of Lake Varen dropped by 4.2 m.', passage: KRWA },
  { sentence: 'Lake Varen’s water level declined by 4.2 metres from 2015 to 2024.', passage: KRWA },
  { sentence: 'The level of Lake Varen fell by about 13.8 feet between 2015 and 2024.', passage: KRWA },
  { sentence: "Irrigation withdrawals didn't cause the decline.", passage: KRWA },
  { sentence: 'The decline was not caused by irrigation withdrawals.', passage: KRWA },
  { sentence: 'In March 2016 the Tessel Canal opened.', passage: CANAL },
  { sentence: 'The Tessel Canal, opened in 2016, supplies some 240 licensed holdings.', passage: CANAL },
  {
    sentence: 'Catchment rainfall was 12 per cent below average in 2015–2024, while evaporation rose by about 9 percent.',
    passage: CLIMATE,
  },
  { sentence: 'The Brennmoor Dam schedule change took effect in April 2016.', passage: DAM },
  { sentence: 'According to the Eskerford University study, the lake is not recovering.', passage: STUDY },
  { sentence: 'Losses to seepage from the canal came to 6.5 million cubic metres in 2023.', passage: STUDY },
  { sentence: 'Researchers found the lake is not recovering.', passage: STUDY },
  { sentence: 'Evaporation from open water rose over the same years.', passage: CLIMATE },
];

describe('the verification guard', () => {
  it.each(CHANGED.map((c) => [c.kind, c.sentence, c.passage] as const))('catches a changed %s: %s', (kind, sentence, passage) => {
    const result = guardSentence(sentence, [passage]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.kind)).toContain(kind);
  });

  it.each(FAITHFUL.map((c) => [c.sentence, c.passage] as const))('passes a faithful paraphrase: %s', (sentence, passage) => {
    expect(guardSentence(sentence, [passage])).toEqual({ ok: true, problems: [] });
  });

  it('floors: 100% of changed numbers, dates, units, names and negations caught; 0 false alarms', () => {
    const caught = CHANGED.filter((c) => guardSentence(c.sentence, [c.passage]).problems.some((p) => p.kind === c.kind)).length;
    const falseAlarms = FAITHFUL.filter((c) => !guardSentence(c.sentence, [c.passage]).ok).length;
    for (const kind of ['number', 'date', 'unit', 'entity', 'negation'] as const) {
      expect(CHANGED.filter((c) => c.kind === kind).length).toBeGreaterThanOrEqual(5);
    }
    expect(caught / CHANGED.length).toBe(1);
    expect(falseAlarms).toBe(0);
  });

  it('a verbatim quote passes when its passage breaks a figure across a line (found by the lake-varen eval)', () => {
    const passage = 'The panel estimates the canal took 42–50\nmillion m³ a year from the lake.';
    expect(guardSentence('The panel estimates the canal took 42–50 million m³ a year from the lake.', [passage])).toEqual({
      ok: true,
      problems: [],
    });
    expect(guardSentence('The panel estimates the canal took 42–60 million m³ a year from the lake.', [passage]).ok).toBe(false);
  });

  it('a sentence citing nothing may repeat the question, and fails on any figure or name beyond it', () => {
    const question = "What caused the decline of Lake Varen's water level, and how large was it?";
    expect(guardSentence('This report addresses what caused the decline of Lake Varen.', [], { context: [question] }).ok).toBe(true);
    expect(guardSentence('Lake Varen fell by 4.2 metres.', [], { context: [question] }).problems).toEqual([
      { kind: 'number', text: '4.2 metres' },
    ]);
    expect(guardSentence('The KRWA blames the climate.', [], { context: [question] }).problems).toEqual([{ kind: 'entity', text: 'KRWA' }]);
  });

  it('names: runs of capitalised words and acronyms; a lone capitalised first word is an ordinary word', () => {
    expect(namedEntities('Rainfall fell. Brennmoor Hydro said the KRWA was wrong in March.')).toEqual([['Brennmoor', 'Hydro'], ['KRWA']]);
  });
});

import { comparable, extractQuantities, figureRoles, sameQuantity, yearOf, type Quantity } from '../../../src/offline/nlp/quantities';

function brief(text: string): Pick<Quantity, 'kind' | 'value' | 'unit' | 'raw'>[] {
  return extractQuantities(text).map(({ kind, value, unit, raw }) => ({ kind, value, unit, raw }));
}

describe('extractQuantities', () => {
  it('extracts plain numbers with separators and decimals', () => {
    expect(brief('There were 42 cars, 1,200.75 units and 3.5 tons of cargo.')).toEqual([
      { kind: 'number', value: 42, unit: null, raw: '42' },
      { kind: 'number', value: 1200.75, unit: null, raw: '1,200.75' },
      { kind: 'number', value: 3500, unit: 'kg', raw: '3.5 tons' },
    ]);
  });

  it('converts lengths to metres', () => {
    const [m, ft, short, km] = extractQuantities('It is 4.2 metres, 13.8 feet, 4.21 m or 0.0042 km high.');
    expect(m).toMatchObject({ value: 4.2, unit: 'm', sourceUnit: 'm', raw: '4.2 metres' });
    expect(ft!.value).toBeCloseTo(4.20624, 6);
    expect(ft).toMatchObject({ unit: 'm', sourceUnit: 'ft', raw: '13.8 feet' });
    expect(short).toMatchObject({ value: 4.21, unit: 'm' });
    expect(km).toMatchObject({ value: 4.2, unit: 'm', sourceUnit: 'km' });
    expect(brief('a 10 meter wall and a 3 ft step')[1]!.value).toBeCloseTo(0.9144, 6);
  });

  it('handles areas, volumes and multipliers', () => {
    expect(brief('It holds 3.5 million cubic metres and covers 2 square kilometres.')).toEqual([
      { kind: 'number', value: 3_500_000, unit: 'm3', raw: '3.5 million cubic metres' },
      { kind: 'number', value: 2_000_000, unit: 'm2', raw: '2 square kilometres' },
    ]);
    expect(brief('About 12 million people and 2 billion trees')).toEqual([
      { kind: 'number', value: 12_000_000, unit: null, raw: '12 million' },
      { kind: 'number', value: 2_000_000_000, unit: null, raw: '2 billion' },
    ]);
  });

  it('recognises percentages', () => {
    expect(brief('It rose 45% then 12 percent and 3 per cent, or 2 percentage points.')).toEqual([
      { kind: 'percent', value: 45, unit: '%', raw: '45%' },
      { kind: 'percent', value: 12, unit: '%', raw: '12 percent' },
      { kind: 'percent', value: 3, unit: '%', raw: '3 per cent' },
      { kind: 'percent', value: 2, unit: 'pp', raw: '2 percentage points' },
    ]);
  });

  it('recognises money with symbols, codes, words and multipliers', () => {
    expect(brief('It cost $3.5 million, €40m, £20, USD 5 bn and 7 billion dollars.')).toEqual([
      { kind: 'money', value: 3_500_000, unit: 'USD', raw: '$3.5 million' },
      { kind: 'money', value: 40_000_000, unit: 'EUR', raw: '€40m' },
      { kind: 'money', value: 20, unit: 'GBP', raw: '£20' },
      { kind: 'money', value: 5_000_000_000, unit: 'USD', raw: 'USD 5 bn' },
      { kind: 'money', value: 7_000_000_000, unit: 'USD', raw: '7 billion dollars' },
    ]);
  });

  it('recognises years in year positions only', () => {
    expect(brief('In 2020 the 2021 budget grew; 2000 workers came.')).toEqual([
      { kind: 'year', value: 2020, unit: null, raw: '2020' },
      { kind: 'year', value: 2021, unit: null, raw: '2021' },
      { kind: 'number', value: 2000, unit: null, raw: '2000' },
    ]);
    expect(brief('It was built between 1887 and 1889.').map((q) => [q.kind, q.value])).toEqual([
      ['year', 1887],
      ['year', 1889],
    ]);
    expect(brief('It holds 1500 seats.')[0]!.kind).toBe('number');
  });

  it('reads the second year of a span written short as a year (decision 0166)', () => {
    expect(
      brief('It treats the 2015–16 low as a dry-year fluctuation; the lake refilled in 2016-17.').map((q) => [q.kind, q.value]),
    ).toEqual([
      ['year', 2015],
      ['year', 2016],
      ['year', 2016],
      ['year', 2017],
    ]);
    // Not a span: a number after a year and a space, or one not later in the century.
    expect(brief('In 2015 – 16 stations reported; the 2015–09 entry.').map((q) => [q.kind, q.value])).toEqual([
      ['year', 2015],
      ['number', 16],
      ['year', 2015],
      ['number', 9],
    ]);
  });

  it('recognises full dates and month-year dates', () => {
    const qs = extractQuantities('Opened on 27 May 1937, announced January 5, 2020, again in March 2021 and on 2021-03-04.');
    expect(qs.map((q) => [q.kind, q.unit, q.raw])).toEqual([
      ['date', 'day', '27 May 1937'],
      ['date', 'day', 'January 5, 2020'],
      ['date', 'month', 'March 2021'],
      ['date', 'day', '2021-03-04'],
    ]);
    expect(new Date(qs[0]!.value).toISOString()).toBe('1937-05-27T00:00:00.000Z');
    expect(new Date(qs[2]!.value).toISOString()).toBe('2021-03-01T00:00:00.000Z');
  });

  it('rejects impossible dates and lower-case month words', () => {
    const dates = extractQuantities('On 31 April 2020 we may 2020 march.').filter((q) => q.kind === 'date');
    // "31 April" is no day; "April 2020" is still a month.
    expect(dates.map((q) => [q.unit, q.raw])).toEqual([['month', 'April 2020']]);
  });

  it('ignores numbers glued to words, ordinals, decades and times', () => {
    expect(brief('COVID-19 hit; v2.1 and A4 paper; the 1st; 5G; the 1990s; at 10:30.')).toEqual([]);
  });

  it('converts temperature, speed, energy and time', () => {
    const [f, c, kmh, gw, twh, years] = extractQuantities('40 °F, -5 °C, 100 km/h, 2 GW, 5 TWh and 3 years');
    expect(f!.value).toBeCloseTo(4.444, 3);
    expect(c).toMatchObject({ value: -5, unit: '°C', raw: '-5 °C' });
    expect(kmh!.value).toBeCloseTo(27.78, 2);
    expect(gw).toMatchObject({ value: 2e9, unit: 'W' });
    expect(twh).toMatchObject({ value: 5e12, unit: 'Wh' });
    expect(years).toMatchObject({ unit: 's', sourceUnit: 'year' });
  });

  it('gives offsets that slice back to raw', () => {
    const text = 'Costs of $1,200 and 13.8 feet on 5 May 2020, 7%.';
    for (const q of extractQuantities(text)) expect(text.slice(q.start, q.end)).toBe(q.raw);
  });

  it('returns nothing for text without figures', () => {
    expect(extractQuantities('No figures here at all.')).toEqual([]);
  });
});

describe('comparing quantities', () => {
  const [m, ft, year, date, pct] = extractQuantities('4.2 metres, 13.8 feet, in 1937, on 27 May 1937, 5%');

  it('compares by dimension', () => {
    expect(comparable(m!, ft!)).toBe(true);
    expect(comparable(year!, date!)).toBe(true);
    expect(comparable(m!, pct!)).toBe(false);
    expect(comparable(year!, m!)).toBe(false);
  });

  it('agrees within tolerance and at the coarser date precision', () => {
    expect(sameQuantity(m!, ft!)).toBe(true);
    expect(sameQuantity(year!, date!)).toBe(true);
    expect(yearOf(date!)).toBe(1937);
    const [a, b] = extractQuantities('in March 1937 and on 2 April 1937');
    expect(sameQuantity(a!, b!)).toBe(false);
  });
});

describe('figureRoles (decision 0168)', () => {
  const roles = (text: string) => {
    const qs = extractQuantities(text);
    const r = figureRoles(text, qs);
    return qs.map((q, i) => [q.raw, r[i]]);
  };

  it('reads the numbers of numbered things as labels, ranges included', () => {
    expect(roles('The packs were produced in weeks 08 to 41 of 2023.')).toEqual([
      ['08', 'label'],
      ['41', 'label'],
      ['2023', null],
    ]);
    expect(roles('See Bulletin No. 6 and sections 3–4; 24 packs were tested.')).toEqual([
      ['6', 'label'],
      ['3', 'label'],
      ['4', 'label'],
      ['24', null],
    ]);
  });

  it('reads a date a count runs up to as as-of, and other dates and measures as neither', () => {
    expect(roles('14 reports up to 31 January 2025, the first in March 2024, over 3.5 km.')).toEqual([
      ['14', null],
      ['31 January 2025', 'as-of'],
      ['March 2024', null],
      ['3.5 km', null],
    ]);
  });

  it('reads the numbers inside a code with letters as labels, and a bare range as figures (decision 0169)', () => {
    expect(roles('Affected packs have a serial number from VB36-2308-00001 to VB36-2352-99999.').map(([, r]) => r)).toEqual([
      'label',
      'label',
      'label',
      'label',
    ]);
    expect(roles('Report OTL-25-0412 counts 41,200 packs.')).toEqual([
      ['0412', 'label'],
      ['41,200', null],
    ]);
    expect(roles('Between 20-30 packs failed.').map(([, r]) => r)).toEqual([null, null]);
  });
});

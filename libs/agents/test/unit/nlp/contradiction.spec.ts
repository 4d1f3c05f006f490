import { detectContradiction } from '../../../src/offline/nlp/contradiction';

describe('detectContradiction', () => {
  it('accepts the same length in other units', () => {
    expect(detectContradiction('The wall is 4.2 metres high.', 'The wall is 13.8 feet high.')).toBeNull();
  });

  it('flags a unit conflict after conversion', () => {
    const found = detectContradiction('The wall is 6.1 metres high.', 'The wall is 13.8 feet high.');
    expect(found?.kind).toBe('unit');
    expect(found?.note).toContain('6.1 metres');
    expect(found?.note).toContain('13.8 feet');
    expect(found?.note).toContain('4.21 m');
  });

  it('flags differing numbers in the same unit, naming both', () => {
    expect(detectContradiction('The wall is 4.2 metres high.', 'The wall is 6.1 metres high.')).toEqual({
      kind: 'number',
      note: '4.2 metres vs 6.1 metres',
    });
    expect(detectContradiction('Unemployment rose to 5%.', 'Unemployment rose to 7%.')?.kind).toBe('number');
    expect(detectContradiction('Revenue was $3.5 million in 2020.', 'Revenue was $4.5 million in 2020.')?.note).toBe(
      '$3.5 million vs $4.5 million',
    );
  });

  it('compares a figure whose statement opens with a connective ("On this basis …") like any other', () => {
    const attributed =
      "The authority's annual-mean series shows that the water level of Lake Varen fell by 4.2 metres between 2015 and 2024.";
    expect(
      detectContradiction('On this basis the water level of Lake Varen fell by 5.0 metres between 2015 and 2024.', attributed),
    ).toEqual({
      kind: 'number',
      note: '5.0 metres vs 4.2 metres',
    });
  });

  it('tolerates differences of at most 5%', () => {
    expect(detectContradiction('Revenue was $3.5 million.', 'Revenue was $3.6 million.')).toBeNull();
    expect(detectContradiction('The city has 1,000 residents.', 'The city has 1,060 residents.')?.kind).toBe('number');
  });

  it('flags differing years and dates for the same event', () => {
    expect(detectContradiction('The bridge opened in 1937.', 'The bridge opened in 1936.')).toEqual({ kind: 'date', note: '1937 vs 1936' });
    expect(detectContradiction('The bridge opened on 27 May 1937.', 'The bridge opened on 28 May 1937.')?.kind).toBe('date');
  });

  it('does not compare the numbers of numbered things: other weeks or sections are other things (decision 0168)', () => {
    const recall = 'The affected packs were produced in weeks 08 to 41 of 2023.';
    const tested = 'We tested 24 VB-36 packs produced in weeks 10 to 50 of 2023 (the affected weeks) and 24 VB-36 packs produced in 2024.';
    expect(detectContradiction(recall, tested)).toBeNull();
    expect(
      detectContradiction(
        'Recall figures are published under section 21 of the act.',
        'Recall figures are published under section 23 of the act.',
      ),
    ).toBeNull();
    // A count beside the label still conflicts with another count.
    expect(
      detectContradiction('The recall covers 41,200 packs from weeks 08 to 41.', 'The recall covers 63,400 packs from weeks 08 to 41.'),
    ).toEqual({
      kind: 'number',
      note: '41,200 vs 63,400',
    });
  });

  it('compares codes as names and dates only when they date the same thing (decision 0169)', () => {
    // A serial number's digits and the week a sample was made measure nothing against the recall's production weeks.
    expect(
      detectContradiction(
        'Affected packs have a serial number from VB36-2308-00001 to VB36-2352-99999.',
        'Your pack is affected if the serial number starts with VB36-23 and the next two digits are between 08 and 41.',
      ),
    ).toBeNull();
    expect(
      detectContradiction(
        'Each group held 12 packs from the affected weeks and 12 packs from 2024.',
        'The affected packs were produced in weeks 08 to 41 of 2023.',
      ),
    ).toBeNull();
    // The same event told in other words still conflicts.
    expect(detectContradiction('The Tessel Canal was opened in April 2016.', 'The Tessel Canal, which opened in 2018, is long.')).toEqual({
      kind: 'date',
      note: 'April 2016 vs 2018',
    });
  });

  it('compares the date a count runs up to only with such dates (decision 0168)', () => {
    const counted = 'Arvenna has received 14 confirmed reports of VB-36 packs overheating up to 31 January 2025.';
    expect(
      detectContradiction(counted, 'Arvenna has told the Office that it first received a report of a pack overheating in March 2024.'),
    ).toBeNull();
    expect(
      detectContradiction(counted, 'Arvenna has received 14 confirmed reports of VB-36 packs overheating up to 31 March 2025.')?.kind,
    ).toBe('date');
    expect(
      detectContradiction(counted, 'Arvenna has received 23 confirmed reports of VB-36 packs overheating up to 31 January 2025.'),
    ).toEqual({
      kind: 'number',
      note: '14 vs 23',
    });
  });

  it('accepts a year that matches a full date', () => {
    expect(detectContradiction('The bridge opened on 27 May 1937.', 'The bridge opened in 1937.')).toBeNull();
  });

  it.each([
    ['The bridge did not open in 1937.', 'The bridge opened in 1937.', 'not'],
    ['The company failed to reach its target.', 'The company reached its target.', 'failed to'],
    ['The vaccine is effective.', "The vaccine isn't effective.", "isn't"],
    ['The study found no link between coffee and cancer.', 'The study found a link between coffee and cancer.', 'no'],
    ['The plan was never approved by the council.', 'The plan was approved by the council.', 'never'],
  ])('flags a negation: %s / %s', (a, b, cue) => {
    const found = detectContradiction(a, b);
    expect(found?.kind).toBe('negation');
    expect(found?.note).toContain(cue);
  });

  it('ignores negations when the rest differs', () => {
    expect(detectContradiction('The tower, which has no elevator, is 330 m tall.', 'The tower is 330 m tall.')).toBeNull();
    expect(detectContradiction('The bridge did not collapse.', 'The bridge is painted orange.')).toBeNull();
  });

  it('ignores statements about different subjects', () => {
    expect(detectContradiction("The bridge's main span is 1,280 metres.", 'The bridge total length is 2,737 metres.')).toBeNull();
    expect(detectContradiction('Cats are mammals.', 'The bridge opened in 1937.')).toBeNull();
  });

  it('agrees when any pair of figures of a kind agrees', () => {
    expect(detectContradiction('The tower was built from 1887 to 1889.', 'The tower was built in 1889.')).toBeNull();
  });

  it('returns null for agreeing statements and is symmetric in kind', () => {
    expect(detectContradiction('The bridge opened in 1937.', 'The bridge opened in 1937.')).toBeNull();
    expect(detectContradiction('The wall is 13.8 feet high.', 'The wall is 6.1 metres high.')?.kind).toBe('unit');
  });
});

describe('detectContradiction: a negation of the same claim with more words', () => {
  it('finds "X did not cause the decline of the lake" against "X caused the decline"', () => {
    expect(
      detectContradiction('Irrigation withdrawals caused the decline.', 'Irrigation withdrawals did not cause the decline of Lake Varen.'),
    ).toMatchObject({ kind: 'negation' });
  });
});

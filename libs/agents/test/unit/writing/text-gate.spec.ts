import { fragmentOf, headingProblem, leakedText, nearDuplicate } from '../../../src/writing/model-text';
import { gateModelText, scrubbed } from '../../../src/writing/text-gate';

describe('the text gate of model text (decision 0041)', () => {
  it.each([
    ['Q1 Produce JSON object now sources disagree Q2', 'a short id'],
    ['C1 38 vs 52 million metered intake vs', 'a short id'],
    ['The level fell by 2.1 metres between 2019 and 2024 [E2].', 'a short id'],
    ['The level fell by 2.1 metres [E2, E5].', 'a short id'],
    ['The level fell by 2.1 metres >> between 2019 and 2024.', 'a prompt marker'],
    ["Produce the JSON object now. >> … <<','priority':50},{'perspectiveId':", 'a prompt marker'],
    ['The abstraction doubled. Produce the JSON object now.', 'instruction text'],
    ["What caused the decline?','priority':50},{'perspectiveId':'P2'", 'a JSON fragment'],
  ])('leaked: %s', (text, what) => {
    expect(leakedText(text)).toBe(what);
  });

  it.each([
    'The water level of Lake Varen fell by about 2.1 metres between 2019 and 2024.',
    'Q1 2024 abstraction rose to 52 million cubic metres, the authority reported.',
    'The E45 road runs along the northern shore of the lake.',
    'Irrigation abstraction rose from 38 to 52 million m³ a year (KRWA figures).',
  ])('not leaked: %s', (text) => {
    expect(leakedText(text)).toBeNull();
    expect(fragmentOf(text)).toBeNull();
  });

  it.each([
    ['The lake covers an area of approx. [1][2]', 'it ends in citation markers'],
    ['The decline began in 2015 and', 'it is cut off (no closing punctuation)'],
    ['Three explanations are commonly given:', 'it ends like a lead-in, not a sentence'],
    ['Fell.', 'too short to be a sentence'],
  ])('fragment: %s', (text, why) => {
    expect(fragmentOf(text)).toBe(why);
  });

  it('headings name the subject; a leaked one is cleaned where words are left', () => {
    expect(headingProblem('Causes of the decline')).toBeNull();
    expect(headingProblem('Q1 Causes of the decline')).toBe('a short id');
    expect(scrubbed('Q1 Causes of the decline [E2]')).toBe('Causes of the decline');
    expect(scrubbed('Q1 Produce JSON object now')).toBeNull();
  });

  it('near duplicates: the same words, or nearly, with the same figures', () => {
    const a = 'The water level of Lake Varen fell by about 2.1 metres between 2019 and 2024.';
    expect(nearDuplicate(a, 'the water level of Lake Varen fell by about 2.1 metres between 2019 and 2024')).toBe(true);
    expect(nearDuplicate(a, 'The water level of Lake Varen fell by roughly 2.1 metres between 2019 and 2024.')).toBe(true);
    expect(nearDuplicate(a, 'The water level of Lake Varen fell by about 3.4 metres between 2019 and 2024.')).toBe(false);
    expect(nearDuplicate(a, 'Irrigation abstraction rose from 38 to 52 million cubic metres.')).toBe(false);
  });

  it('a section answer: leaked, repeated and cut sentences are named for the repair and dropped from the output', () => {
    const good = { text: 'The water level of Lake Varen fell by about 2.1 metres between 2019 and 2024.', evidenceIds: ['E1'] };
    const out = gateModelText(
      'sectionWriter',
      {},
      {
        paragraphs: [
          { sentences: [good, { text: 'Abstraction doubled [E2].', evidenceIds: ['E2'] }] },
          { sentences: [{ ...good }, { text: 'The decline began in 2015 and', evidenceIds: ['E3'] }] },
        ],
      },
    );
    expect(out.output).toEqual({ paragraphs: [{ sentences: [good] }] });
    expect(out.dropped).toEqual({ leaked: 1, duplicates: 1, fragments: 1 });
    expect(out.issues).toEqual([
      expect.stringMatching(/^sentence 2 carries a short id/),
      expect.stringMatching(/^sentence 3 repeats an earlier sentence/),
      expect.stringMatching(/^sentence 4 is not a complete sentence/),
    ]);
  });

  it("a sentence quoted word for word from its evidence is the source's: judged for repeats only", () => {
    const item = { text: 'Mean annual level, 2014 to 2024', evidenceIds: ['E1'] };
    const input = { evidence: [{ id: 'E1', excerpt: 'Table 2. Mean annual level, 2014 to 2024 (m above datum).' }] };
    expect(gateModelText('sectionWriter', input, { paragraphs: [{ sentences: [item] }] }).issues).toEqual([]);
    expect(gateModelText('sectionWriter', {}, { paragraphs: [{ sentences: [item] }] }).dropped.fragments).toBe(1);
  });

  it('a repair that fails the gate becomes a drop (one fix per sentence stays)', () => {
    const out = gateModelText(
      'repairer',
      {},
      {
        fixes: [{ action: 'rewrite', text: 'The level fell 2.1 m >> in five years.', evidenceIds: ['E1'] }, { action: 'drop' }],
      },
    );
    expect(out.output).toEqual({ fixes: [{ action: 'drop' }, { action: 'drop' }] });
    expect(out.dropped.leaked).toBe(1);
  });

  it('roles whose text never reaches a report pass unchanged', () => {
    const value = { queries: [{ query: 'Q1 >> lake level', questionId: 'Q1' }] };
    expect(gateModelText('queryPlanner', {}, value)).toEqual({
      output: value,
      issues: [],
      dropped: { leaked: 0, duplicates: 0, fragments: 0 },
    });
  });
});

import { evidenceCurator } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.evidenceCurator;
const text = base.source.text;

describe('evidenceCurator (offline)', () => {
  const { fragments } = evidenceCurator.offline(base);

  it('returns verbatim excerpts: excerpt === source.text.slice(start, end)', () => {
    expect(fragments.length).toBeGreaterThan(2);
    for (const f of fragments) expect(text.slice(f.start, f.end)).toBe(f.excerpt);
  });

  it('excerpts whole sentences and normalises the statement', () => {
    for (const f of fragments) {
      expect(f.excerpt).toMatch(/^[A-Z]/);
      expect(f.excerpt).toMatch(/[.!?]$/);
      expect(f.statement).toBe(f.excerpt.replace(/\s+/g, ' ').trim());
    }
  });

  it('finds the facts the questions ask about', () => {
    const excerpts = fragments.map((f) => f.excerpt);
    expect(excerpts).toContain('The construction cost was $35 million, financed by bonds approved by voters in 1930.');
    expect(excerpts).toContain('Construction of the Golden Gate Bridge began on 5 January 1933.');
  });

  it('skips headings, short bullets, table rows and boilerplate', () => {
    for (const f of fragments) {
      expect(f.excerpt).not.toMatch(/cookies|Copyright|^#|\||^Construction$|Main span: 1,280/);
    }
  });

  it('takes a long list item without its bullet', () => {
    const { fragments: many } = evidenceCurator.offline({
      ...base,
      question: 'How tall are the towers above the water, and where was the steel from?',
      questions: [],
      maxFragments: 3,
    });
    const item = many.find((f) => f.excerpt.startsWith('The towers rise 227 metres'));
    expect(item).toBeDefined();
    expect(text[item!.start - 2]).toBe('-');
  });

  it('links fragments to the question they answer best, with confidence in [0, 1]', () => {
    const cost = fragments.find((f) => f.excerpt.includes('$35 million'))!;
    expect(cost.questionId).toBe('Q2');
    for (const f of fragments) {
      expect(f.confidence).toBeGreaterThanOrEqual(0);
      expect(f.confidence).toBeLessThanOrEqual(1);
    }
    expect(Math.max(...fragments.map((f) => f.confidence))).toBe(1);
  });

  it('respects maxFragments and returns fragments in source order', () => {
    const { fragments: two } = evidenceCurator.offline({ ...base, maxFragments: 2 });
    expect(two).toHaveLength(2);
    const starts = fragments.map((f) => f.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('prepends the previous sentence when a sentence opens with a pronoun', () => {
    const source = {
      id: 'S2',
      title: 'Bridge',
      text: 'Joseph Strauss designed the bridge in 1921. It was his largest project, and it cost $35 million to complete.',
    };
    const { fragments: out } = evidenceCurator.offline({
      question: 'What did the largest project cost to complete?',
      questions: [],
      source,
      maxFragments: 1,
    });
    expect(out).toHaveLength(1);
    expect(out[0]!.excerpt).toBe(source.text);
    expect(out[0]!.start).toBe(0);
  });

  it('returns nothing for an irrelevant or empty source', () => {
    expect(evidenceCurator.offline({ ...base, source: { id: 'S3', title: '', text: '' } }).fragments).toEqual([]);
    const cats = { id: 'S4', title: 'Cats', text: 'Cats are small carnivorous mammals. They sleep for most of the day.' };
    expect(evidenceCurator.offline({ ...base, source: cats }).fragments).toEqual([]);
  });

  it('never takes boilerplate, a fragment or a flagged sentence as evidence: a lead-in, an item without it, a byline, a self-description, code, "[citation needed]"', () => {
    const source = [
      '# Golden Gate Bridge inspections',
      '',
      'This note explains how the Golden Gate Bridge is inspected and why its cables are painted every year.',
      '',
      'Golden Gate Bridge Highway and Transportation District, Engineering Section.',
      '',
      'Inspectors of the Golden Gate Bridge check the main cables for corrosion in three ways:',
      '',
      '- by walking the main cables of the bridge once a year and noting rust;',
      '- by measuring the cable wire tension of the bridge with sensors,',
      '',
      '    $ bridgectl inspect --cable main --bridge golden-gate --report corrosion',
      '',
      'The main cables of the Golden Gate Bridge were found free of corrosion in the 2021 inspection.[citation needed]',
      '',
      'The main cables of the Golden Gate Bridge were last repainted against corrosion in 2022.[4]',
      '',
      'Corrosion reports about the Golden Gate Bridge should be sent to the inspections mailing list.',
    ].join('\n');
    const { fragments: found } = evidenceCurator.offline({
      question: 'How are the Golden Gate Bridge cables inspected for corrosion?',
      questions: [],
      source: { id: 'S1', title: 'Inspections', text: source },
      maxFragments: 10,
    });
    const excerpts = found.map((f) => f.excerpt);
    // The flagged sentence is left out (its own source does not stand behind it, 0165); a numbered note is no such flag.
    expect(excerpts).toEqual(['The main cables of the Golden Gate Bridge were last repainted against corrosion in 2022.[4]']);
    for (const f of found) expect(source.slice(f.start, f.end)).toBe(f.excerpt);
  });

  // Velora-recall's test report and recall FAQ (decision 0169).
  const REPORT = [
    'Test Report OTL-25-0412: Charging Tests on Velora VB-36 Battery Packs',
    '1. Scope',
    'Ostvik Test Laboratories is an accredited independent testing laboratory (accreditation no. NT-118). This report describes charging tests on VB-36 battery packs carried out for the Consumer Council. The results relate only to the items tested.',
    'We tested 24 VB-36 packs produced in weeks 10 to 50 of 2023 (the affected weeks) and 24 VB-36 packs produced in 2024.',
    '2. Method',
    'Each pack was charged and discharged repeatedly in a climate chamber with its original charger. Group A was charged at -5 °C, for 60 cycles.',
    '3. Results',
    'Group A (charging at -5 °C): 3 of the 12 packs from the affected weeks went into thermal runaway, after 22, 37 and 51 cycles.',
    'Group B (charging at 23 °C): 1 of the 12 packs from the affected weeks overheated after 140 cycles.',
    '4. Conclusions',
    'Charging at -5 °C greatly increases the risk that a pack from the affected weeks overheats.',
    'Ostvik Test Laboratories, Industriveien 14, Ostvik. This report shall not be reproduced except in full without the written approval of the laboratory.',
  ].join('\n\n');

  it('answers "what did the tests find?" from the report\'s results, and takes none of its notices (decision 0169)', () => {
    const asked = 'What did independent laboratory tests of VB-36 packs find?';
    const found = evidenceCurator
      .offline({
        question: asked,
        questions: [{ id: 'q', text: asked }],
        source: { id: 's', title: 'Test Report', text: REPORT },
        maxFragments: 5,
      })
      .fragments.map((f) => f.statement);
    // The scope names the laboratory and the tests in every sentence; the results name neither.
    expect(found).toEqual(
      expect.arrayContaining([
        'Group A (charging at -5 °C): 3 of the 12 packs from the affected weeks went into thermal runaway, after 22, 37 and 51 cycles.',
        'Group B (charging at 23 °C): 1 of the 12 packs from the affected weeks overheated after 140 cycles.',
      ]),
    );
    // Whole, not cut at "no.": and no address, reproduction notice or disclaimer.
    for (const f of found) {
      expect(f).not.toMatch(/no\.$|Industriveien|reproduced|relate only/);
    }
  });

  it("takes no question as evidence, and reads an FAQ's answer under its question (decision 0169)", () => {
    const faq = [
      'Velora battery recall: questions and answers',
      'How do I know if my battery pack is affected?',
      'Take the battery pack off the bike and turn it over. The serial number is printed on the white label on the underside of the pack.',
      'Is my Velora Sport 900 affected?',
      'The Velora Sport 900 uses the VB-48 battery pack, which is not part of this recall.',
      'Where can I ride safely in winter?',
      'Our dealers sell studded tyres and heated grips for every model in the range.',
    ].join('\n\n');
    const asked = 'How can an owner tell whether their battery pack is affected?';
    const found = evidenceCurator
      .offline({ question: asked, questions: [{ id: 'q', text: asked }], source: { id: 's', title: 'FAQ', text: faq }, maxFragments: 3 })
      .fragments.map((f) => f.statement);
    expect(found.filter((f) => f.endsWith('?'))).toEqual([]);
    // The answer shares no word with the question but "pack"; its label, the FAQ's question, shares the rest.
    expect(found).toContain('Take the battery pack off the bike and turn it over.');
  });
});

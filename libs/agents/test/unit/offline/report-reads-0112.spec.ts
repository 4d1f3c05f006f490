import { pointsBack, sidePointer, withoutSidePointer } from '../../../src/offline/nlp/back-reference';
import { proseFault, readerSentence } from '../../../src/offline/nlp/prose-faults';
import { aboutClause, answersClause, clauseTerms } from '../../../src/offline/roles/outline-architect';
import { explainsDifference } from '../../../src/offline/nlp/dispute-reason';
import { evidenceCurator, framer, sectionWriter } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

/* Issue 25 as the demo's report read after 0111 (decision 0112): sentences that point back, a fact stated twice. */

type Evidence = { id: string; excerpt: string; sourceId: string; start: number };

function write(title: string, evidence: Evidence[], claims?: { id: string; statement: string; evidenceIds: string[] }[]) {
  const out = sectionWriter.offline({
    section: { title, purpose: '' },
    claims: claims ?? evidence.map((e, i) => ({ id: `C${i}`, statement: e.excerpt, evidenceIds: [e.id] })),
    evidence,
  });
  return out.paragraphs.map((p) => p.sentences);
}

describe('a sentence that points back', () => {
  it.each([
    ['Its level has fallen sharply since the mid-2010s.', 'Its'],
    ['Together these two factors account for roughly 70% of the water deficit.', 'Together these'],
    ['The figure compares the spring 2015 high of 213.3 m with the autumn 2024 low.', 'The figure compares'],
    ['They date the start of the decline to 2017.', 'They'],
    // After a short frame, and a clause ending on what it compares with, unnamed (lake-varen q01, decision 0166).
    ["In the authority's water-balance model, these two factors account for about 70% of the loss.", 'these'],
    ['Our nine-station figure falls between the two.', 'between the two.'],
  ])('is recognised by its opening: %s', (sentence, opening) => {
    expect(pointsBack(sentence)).toBe(opening);
  });

  it.each([
    'This report addresses the question: what caused the decline?',
    'This function does nothing if the root logger already has handlers configured.',
    'These options are passed through to the Popen constructor.',
    'It is estimated that the lake lost 18% of its area.',
    'The figure of 52 million cubic metres is an estimate, not a measurement.',
    'The difference from the authority’s figure arises from the reference level.',
    'Both the authority and the growers date the start to 2015.',
    'That the lake fell is not disputed.',
    'The decline was not uniform.',
    'In Python 3.12, this function was removed.',
    'For this reason, some git commands ignore lightweight tags.',
    'By that measure, the lake lost 27% of its area.',
    'In 2016, it is estimated that the canal drew 40 million m³.',
    'The gap between the two series is explained by club permits.',
  ])('is not a sentence naming what it means: %s', (sentence) => {
    expect(pointsBack(sentence)).toBeNull();
  });

  it('is written right after the sentence before it in its source, or not at all when its excerpt opens with it', () => {
    const paragraphs = write(
      'The water balance of the lake',
      [
        { id: 'A1', excerpt: 'The lake has fallen by 4.2 m since 2015. Its area has shrunk by 18% as well.', sourceId: 'S-A', start: 0 },
        { id: 'B1', excerpt: 'Together these two factors account for roughly 70% of the water deficit.', sourceId: 'S-B', start: 0 },
        { id: 'B2', excerpt: 'Rainfall was 12% below the long-term mean in 2018 and 2022.', sourceId: 'S-B', start: 400 },
      ],
      [
        { id: 'C1', statement: 'The area has shrunk by 18%.', evidenceIds: ['A1'] },
        { id: 'C2', statement: 'Two factors account for 70% of the deficit.', evidenceIds: ['B1'] },
        { id: 'C3', statement: 'Rainfall was 12% below the mean.', evidenceIds: ['B2'] },
      ],
    );
    const texts = paragraphs.map((p) => p.map((s) => s.text));
    expect(texts).toEqual([
      ['The lake has fallen by 4.2 m since 2015.', 'Its area has shrunk by 18% as well.'],
      ['Rainfall was 12% below the long-term mean in 2018 and 2022.'],
    ]);
  });

  it('keeps a pointing sentence in the paragraph of the sentence before it when a source fills two paragraphs', () => {
    const excerpts = [
      'The gauge at Varenby was installed in 1962.',
      'The gauge at Lodegate was installed in 1971.',
      'The lake fell by 0.8 m in 2018. This was the second largest annual fall on record.',
      'The logger network was added in 2019.',
    ];
    const evidence = excerpts.map((excerpt, i) => ({ id: `A${i}`, excerpt, sourceId: 'S-A', start: i * 100 }));
    const claims = [
      ...excerpts.map((excerpt, i) => ({ id: `C${i}`, statement: excerpt.split('. ')[0]!, evidenceIds: [`A${i}`] })),
      { id: 'C9', statement: 'The second largest annual fall on record.', evidenceIds: ['A2'] },
    ];
    const paragraphs = write('The gauges', evidence, claims).map((p) => p.map((s) => s.text));
    // Five sentences would split 3 + 2, putting "This was …" first in the second paragraph.
    const at = paragraphs.findIndex((p) => p.includes('This was the second largest annual fall on record.'));
    const p = paragraphs[at]!;
    expect(p.indexOf('The lake fell by 0.8 m in 2018.')).toBeGreaterThanOrEqual(0);
    expect(p.indexOf('This was the second largest annual fall on record.')).toBe(p.indexOf('The lake fell by 0.8 m in 2018.') + 1);
    expect(paragraphs.flat()).toHaveLength(5);
    expect(paragraphs.map((x) => x.length)).toEqual([2, 3]);
  });
});

describe('a side pointer (decisions 0132, 0136)', () => {
  it('is read apart from the pointers a writer keeps after their sentence, and the statement after it stands without it', () => {
    const side = 'On this basis the number of fishing licences fell from 1,410 in 2015 to 480 in 2023.';
    expect(sidePointer(side)).toBe('On this basis');
    expect(pointsBack(side)).toBeNull();
    expect(readerSentence(side)).toBe('The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.');
    expect(withoutSidePointer(side)).toBe('The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.');
    expect(withoutSidePointer('By that measure, the lake lost 27% of its area.')).toBe('The lake lost 27% of its area.');
  });

  it('is no side pointer, or leaves nothing that stands alone', () => {
    expect(withoutSidePointer('The number of fishing licences fell by half.')).toBeNull();
    expect(withoutSidePointer('On this basis it fell by 5.0 metres.')).toBeNull();
    expect(withoutSidePointer('On this basis, yes.')).toBeNull();
  });
});

describe('a claim whose excerpt ends with sentences pointing back at its best sentence', () => {
  it('is written with them, in the source’s order', () => {
    const excerpt =
      'Rainfall was 12% below average between 2015 and 2024, and evaporation rose by 9%. Together these two factors account for roughly 70% of the deficit.';
    const paragraphs = write(
      'The water balance of the lake',
      [{ id: 'A1', excerpt, sourceId: 'S-A', start: 0 }],
      [{ id: 'C1', statement: 'Rainfall was 12% below average between 2015 and 2024, and evaporation rose by 9%.', evidenceIds: ['A1'] }],
    );
    expect(paragraphs.map((p) => p.map((s) => s.text))).toEqual([
      [
        'Rainfall was 12% below average between 2015 and 2024, and evaporation rose by 9%.',
        'Together these two factors account for roughly 70% of the deficit.',
      ],
    ]);
  });
});

describe('the same fact from two sources', () => {
  it('is one sentence citing both when both excerpts state it', () => {
    const paragraphs = write('How large was the decline of the water level?', [
      { id: 'A1', excerpt: 'The annual mean level was 212.6 m in 2015 and 208.4 m in 2024.', sourceId: 'S-A', start: 0 },
      { id: 'A2', excerpt: 'The decline was largest in 2018, when the level fell 0.8 m.', sourceId: 'S-A', start: 100 },
      {
        id: 'B1',
        excerpt: 'Measured as an annual mean, the level dropped from 212.6 m in 2015 to 208.4 m in 2024.',
        sourceId: 'S-B',
        start: 0,
      },
      { id: 'B2', excerpt: 'The level fell below the weir crest of 209.0 m in 2019.', sourceId: 'S-B', start: 200 },
    ]);
    const all = paragraphs.flat();
    const stated = all.filter((s) => /212\.6/.test(s.text));
    expect(stated).toEqual([{ text: 'The annual mean level was 212.6 m in 2015 and 208.4 m in 2024.', evidenceIds: ['A1', 'B1'] }]);
    expect(all).toHaveLength(3);
  });

  it('keeps the sentence whose figures both state, and cites the other only when its excerpt supports it', () => {
    const paragraphs = write('How large was the decline of the lake?', [
      {
        id: 'A1',
        excerpt: 'At the 2024 annual mean level, the surface area was 38.1 km², compared with 46.5 km² in 2015.',
        sourceId: 'S-A',
        start: 0,
      },
      { id: 'A2', excerpt: 'The level fell by 4.2 m over the same years.', sourceId: 'S-A', start: 100 },
      {
        id: 'B1',
        excerpt: 'Shoreline mapping by drone gave 38.1 km² for 2024, 18% below the 46.5 km² of 2015.',
        sourceId: 'S-B',
        start: 0,
      },
      { id: 'B2', excerpt: 'The shore lost 8.4 km² of open water.', sourceId: 'S-B', start: 200 },
    ]);
    const all = paragraphs.flat();
    const stated = all.filter((s) => /38\.1/.test(s.text));
    // B1's words do not support A1's sentence (the verifier would not find "surface area … level" in it): one sentence,
    // cited to its own evidence only.
    expect(stated).toEqual([
      { text: 'At the 2024 annual mean level, the surface area was 38.1 km², compared with 46.5 km² in 2015.', evidenceIds: ['A1'] },
    ]);
  });

  it('is not the same fact when the other sentence adds a figure of its own (a percentage restating two is none)', () => {
    const paragraphs = write('How much water do withdrawals take from the lake each year?', [
      {
        id: 'A1',
        excerpt: 'Metered abstraction averages 38 million m³ per year; the university estimates 52 million m³ per year.',
        sourceId: 'S-A',
        start: 0,
      },
      { id: 'A2', excerpt: 'Withdrawals in 2022 reached 41.6 million m³ at the intake.', sourceId: 'S-A', start: 100 },
      {
        id: 'B1',
        excerpt:
          'The panel estimates withdrawals at 42–50 million m³ per year, between the metered 38 million m³ and the university’s 52 million m³.',
        sourceId: 'S-B',
        start: 0,
      },
      { id: 'B2', excerpt: 'Withdrawals in 2017 were 33.0 million m³ at the intake.', sourceId: 'S-B', start: 200 },
    ]);
    expect(paragraphs.flat().filter((s) => /42–50/.test(s.text))).toHaveLength(1);
  });

  it('is not a fact stated twice when one figure differs, or when the shared figures are only years', () => {
    const paragraphs = write('How large was the decline of the lake?', [
      { id: 'A1', excerpt: 'The level fell by 4.2 m between 2015 and 2024.', sourceId: 'S-A', start: 0 },
      { id: 'A2', excerpt: 'The area fell by 8.4 km² between 2015 and 2024.', sourceId: 'S-A', start: 100 },
      { id: 'B1', excerpt: 'The level fell by 6.1 m between 2015 and 2024.', sourceId: 'S-B', start: 0 },
      { id: 'B2', excerpt: 'The lake lost 27% of its area between 2015 and 2024.', sourceId: 'S-B', start: 100 },
    ]);
    expect(paragraphs.flat()).toHaveLength(4);
  });
});

describe('a paragraph of one sentence', () => {
  const title = "How large was the decline of Lake Varen's water level?";
  const main = [
    { id: 'A1', excerpt: 'The annual mean level fell by 4.2 m between 2015 and 2024.', sourceId: 'S-A', start: 0 },
    { id: 'A2', excerpt: 'The largest annual fall, 0.9 m, came in 2022.', sourceId: 'S-A', start: 100 },
  ];
  it('is left out when it does not answer the section’s question', () => {
    const paragraphs = write(title, [
      ...main,
      { id: 'B1', excerpt: 'Fish stocks are reported to have declined during the drawdown.', sourceId: 'S-B', start: 0 },
    ]);
    expect(paragraphs.flat().map((s) => s.evidenceIds[0])).toEqual(['A1', 'A2']);
  });

  it('stays when it does', () => {
    const paragraphs = write(title, [
      ...main,
      { id: 'B1', excerpt: 'The level had dropped 6.1 m by the autumn of 2024.', sourceId: 'S-B', start: 0 },
    ]);
    expect(paragraphs.flat().map((s) => s.evidenceIds[0])).toEqual(['A1', 'A2', 'B1']);
  });

  it('is not judged under a section of no known kind', () => {
    expect(answersClause('Fish stocks are reported to have declined.', clauseTerms('Fishing on the lake'))).toBe(true);
  });
});

describe('the clause a sentence is about', () => {
  it('does not count "because" alone as a cause', () => {
    const cause = clauseTerms("What caused the decline of Lake Varen's water level?");
    expect(aboutClause('Because the northern shore is very flat, a small change in level exposes a large area.', cause)).toBe(false);
    expect(aboutClause('Irrigation abstraction explains about 60% of the storage deficit.', cause)).toBe(true);
  });

  it('does not count the subject’s own word as the kind’s', () => {
    const size = clauseTerms("How large was the decline of Lake Varen's water level?");
    expect(aboutClause('Fish stocks are reported to have declined during the drawdown.', size)).toBe(false);
    expect(aboutClause('The level fell by 4.2 m between 2015 and 2024.', size)).toBe(true);
  });
});

describe('a pointer to another work', () => {
  it('is not a finding; a bracketed one is an aside', () => {
    expect(
      proseFault('At the October minimum the exposed area was larger; see Technical Note TN-11 for how area is calculated.')?.kind,
    ).toBe('pointer');
    expect(proseFault('Refer to Appendix B for the monthly series.')?.kind).toBe('pointer');
    expect(proseFault('The exposed area was larger at the October minimum (see Table 3).')).toBeNull();
  });
});

describe('the introduction’s main findings', () => {
  it('pass over a sentence that points back, which quoted alone points at nothing', () => {
    const sections = [
      {
        title: 'How large was the decline of the lake?',
        sentences: [
          { text: 'Its level fell by 4.2 m, the decline of the lake since 2015.', evidenceIds: ['E1'] },
          { text: 'The annual mean level of the lake fell by 4.2 m between 2015 and 2024.', evidenceIds: ['E2'] },
        ],
      },
    ];
    const intro = framer.offline({ ...ROLE_INPUTS.framer, question: 'How large was the decline of the lake?', sections }).introduction;
    expect(intro.filter((s) => s.evidenceIds.length > 0).map((s) => s.text)).toEqual([
      'The annual mean level of the lake fell by 4.2 m between 2015 and 2024.',
    ]);
  });
});

describe('the evidence of a sentence that points back', () => {
  it('holds the sentence it points at, so the writer can show the two together', () => {
    const text = [
      'The authority publishes its balance model every year.',
      'Lower rainfall and higher evaporation reduced inflow to the lake after 2015.',
      'Together these two factors account for roughly 70% of the water deficit in the balance model.',
    ].join(' ');
    const { fragments } = evidenceCurator.offline({
      question: 'What share of the water deficit do the factors account for?',
      questions: [],
      source: { id: 's', title: 'Annual report', text },
      maxFragments: 1,
    });
    expect(fragments.map((f) => f.excerpt)).toEqual([
      'Lower rainfall and higher evaporation reduced inflow to the lake after 2015. Together these two factors account for roughly 70% of the water deficit in the balance model.',
    ]);
  });
});

describe('a figure answers "how much"', () => {
  it('with a multiplier between the number and its unit', () => {
    const much = clauseTerms('How much water do irrigation withdrawals take from Lake Varen each year?');
    expect(answersClause('We estimate total withdrawals attributable to irrigation at 42–50 million m³ per year.', much)).toBe(true);
    expect(answersClause('Irrigation withdrawals began in March 2016.', much)).toBe(false);
  });
});

describe('a dispute’s reason', () => {
  it('is not a sentence pointing back at one the reader does not see', () => {
    const sides = [
      'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
      'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
    ];
    expect(explainsDifference('It is a larger figure because it compares the spring high level with the autumn low level.', sides)).toBe(
      false,
    );
    expect(
      explainsDifference('The 6.1 m figure is larger because it compares the spring high level with the autumn low level.', sides),
    ).toBe(true);
    // One pointing at several points at the sides it follows.
    expect(explainsDifference('The two series compare different levels: the spring high level against the annual mean.', sides)).toBe(true);
  });
});

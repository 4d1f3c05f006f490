import { paragraphSizes, sectionWriter } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.sectionWriter;
const excerpts = new Map(base.evidence.map((e) => [e.id, e.excerpt]));

describe('sectionWriter (offline)', () => {
  const { paragraphs } = sectionWriter.offline(base);
  const sentences = paragraphs.flatMap((p) => p.sentences);

  it('writes only verbatim evidence sentences, each cited', () => {
    expect(sentences.length).toBeGreaterThan(3);
    for (const s of sentences) {
      expect(s.evidenceIds.length).toBeGreaterThanOrEqual(1);
      expect(s.evidenceIds.some((id) => excerpts.get(id)!.includes(s.text))).toBe(true);
    }
  });

  it('cites all evidence of a claim on one sentence', () => {
    const opened = sentences.find((s) => s.text.startsWith('The Golden Gate Bridge opened'))!;
    expect(opened.evidenceIds).toEqual(['E1', 'E2']);
  });

  it('follows the claim order', () => {
    const order = ['opened to traffic', '$35 million', '1,280 metres', 'seismic', 'Construction began'];
    const positions = order.map((p) => sentences.findIndex((s) => s.text.includes(p)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('keeps the sentence a pronoun refers to', () => {
    const i = sentences.findIndex((s) => s.text === 'It was led by chief engineer Joseph Strauss.');
    expect(i).toBeGreaterThan(0);
    expect(sentences[i - 1]!.text).toBe('Construction began in 1933.');
  });

  it('groups a section’s sentences by source, each source’s in its own order, so a paragraph reads as a passage (decision 0089)', () => {
    const evidence = [
      { id: 'A2', excerpt: 'The dam was finished in 1937.', sourceId: 'S-A', start: 900 },
      { id: 'B1', excerpt: 'Critics called the design too costly.', sourceId: 'S-B', start: 10 },
      { id: 'A1', excerpt: 'Work on the dam began in 1933.', sourceId: 'S-A', start: 100 },
      { id: 'A3', excerpt: 'The dam holds 40 cubic kilometres of water.', sourceId: 'S-A', start: 1500 },
    ];
    const claims = evidence.map((e, i) => ({ id: `C${i}`, statement: e.excerpt, evidenceIds: [e.id] }));
    const out = sectionWriter.offline({ section: { title: 'The dam', purpose: '' }, claims, evidence });
    expect(out.paragraphs.map((p) => p.sentences.map((s) => s.evidenceIds[0]))).toEqual([['A1', 'A2', 'A3'], ['B1']]);
  });

  it('opens with the paragraph of a source that holds the most direct answer, each paragraph in page order (decision 0152)', () => {
    const texts = [
      'The fixup option creates a commit that a later rebase folds into another.',
      'The fixup commit keeps the log message of the commit it fixes.',
      'A reword fixup replaces only the log message of that commit.',
      'An empty log message is an error unless it is allowed.',
      'The amend option replaces the tip of the current branch by creating a new commit.',
      'The message of the original commit is the starting point for the new one.',
      'The new commit has the same parents and author as the current one.',
      'Amending a published commit rewrites its history.',
    ];
    const evidence = texts.map((excerpt, i) => ({ id: `P${i}`, excerpt, sourceId: 'S-commit', start: 100 * (i + 1) }));
    // The outline's order: the amend sentences answer first.
    const order = [4, 5, 6, 7, 0, 1, 2, 3];
    const claims = order.map((i) => ({ id: `C${i}`, statement: texts[i]!, evidenceIds: [`P${i}`] }));
    const out = sectionWriter.offline({ section: { title: 'How does the amend option fix a commit?', purpose: '' }, claims, evidence });
    expect(out.paragraphs.map((p) => p.sentences.map((s) => s.evidenceIds[0]))).toEqual([
      ['P4', 'P5', 'P6', 'P7'],
      ['P0', 'P1', 'P2', 'P3'],
    ]);
  });

  it('writes paragraphs of 2–4 sentences', () => {
    for (const p of paragraphs) {
      expect(p.sentences.length).toBeGreaterThanOrEqual(2);
      expect(p.sentences.length).toBeLessThanOrEqual(4);
    }
  });

  it('skips claims whose evidence is missing', () => {
    const out = sectionWriter.offline({ ...base, claims: [{ id: 'C9', statement: 'Nothing here.', evidenceIds: ['E404'] }] });
    expect(out.paragraphs).toEqual([]);
  });

  it('writes a pointing sentence that opens its excerpt after the excerpt of its source ending right before it (decision 0137)', () => {
    const a = 'The operation of groupby is similar to the uniq filter in Unix.';
    const b = 'It generates a break or new group every time the value of the key function changes.';
    const c = "That behavior differs from SQL's GROUP BY which aggregates common elements regardless of their input order.";
    const evidence = [
      { id: 'G1', excerpt: a, sourceId: 'S-I', start: 400 },
      { id: 'G2', excerpt: b, sourceId: 'S-I', start: 400 + a.length + 2 },
      { id: 'G3', excerpt: c, sourceId: 'S-I', start: 400 + a.length + 2 + b.length + 2 },
      { id: 'H1', excerpt: 'It stores the whole iterable in memory.', sourceId: 'S-J', start: 90 },
    ];
    const claims = evidence.map((e, i) => ({ id: `C${i}`, statement: e.excerpt, evidenceIds: [e.id] }));
    const written = sectionWriter
      .offline({ section: { title: 'Why does groupby repeat keys?', purpose: '' }, claims: claims.reverse(), evidence })
      .paragraphs.flatMap((p) => p.sentences.map((s) => [s.text, s.evidenceIds]));
    // Each sentence cites its own excerpt; the one with nothing of its source before it is still left out.
    expect(written).toEqual([
      [a, ['G1']],
      [b, ['G2']],
      [c, ['G3']],
    ]);
  });

  it('does not repeat a sentence', () => {
    const doubled = { ...base, claims: [...base.claims, { ...base.claims[0]!, id: 'C1b' }] };
    const texts = sectionWriter.offline(doubled).paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('sectionWriter: contested positions stay out of the body (decision 0037)', () => {
  const evidence = [
    {
      id: 'E1',
      excerpt:
        'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024, from a spring maximum of 213.3 m. The lake has lost 27% of its surface area at that minimum.',
    },
    { id: 'E2', excerpt: 'The ferry to Orsa Island was suspended in July 2022.' },
  ];
  const claims = [
    {
      id: 'C1',
      statement: 'The water level of Lake Varen fell by 6.1 metres, and the lake lost 27% of its surface area.',
      evidenceIds: ['E1'],
    },
    { id: 'C2', statement: 'The ferry to Orsa Island was suspended in July 2022.', evidenceIds: ['E2'] },
  ];
  const contested = ['The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.'];
  const input = { section: { title: 'Ada Lind, hydrologist', purpose: 'Interview memo' }, claims, evidence, contested };

  it('writes an uncontested claim from a sentence of its excerpt that states no disputed position', () => {
    const texts = sectionWriter.offline(input).paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(texts).toEqual([
      'The lake has lost 27% of its surface area at that minimum.',
      'The ferry to Orsa Island was suspended in July 2022.',
    ]);
    // Without the list, the excerpt's best sentence for C1 is the contested one.
    const free = sectionWriter.offline({ ...input, contested: undefined }).paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(free[0]).toMatch(/^The water level of Lake Varen fell by 6\.1 metres/);
  });

  it('a model sentence that states a contested position is named for the repair request and dropped', () => {
    const checked = sectionWriter.check!(input, {
      paragraphs: [
        {
          sentences: [
            { text: 'Between 2015 and 2024 the water level of Lake Varen fell by 6.1 metres.', evidenceIds: ['E1'] },
            { text: 'The ferry to Orsa Island was suspended in July 2022.', evidenceIds: ['E2'] },
          ],
        },
      ],
    });
    expect(checked.issues).toEqual([expect.stringMatching(/^a sentence states a contested position/)]);
    expect(checked.cleaned!.paragraphs.flatMap((p) => p.sentences.map((s) => s.text))).toEqual([
      'The ferry to Orsa Island was suspended in July 2022.',
    ]);
    // Another figure is another position: 4.2 metres does not state the contested 6.1.
    const other = sectionWriter.check!(input, {
      paragraphs: [
        { sentences: [{ text: 'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.', evidenceIds: ['E1'] }] },
      ],
    });
    expect(other.issues).toEqual([]);
  });
});

describe('paragraphSizes', () => {
  it.each([
    [0, []],
    [1, [1]],
    [2, [2]],
    [4, [4]],
    [5, [3, 2]],
    [8, [4, 4]],
    [9, [3, 3, 3]],
    [13, [4, 3, 3, 3]],
  ])('%i sentences → %j', (n, sizes) => {
    expect(paragraphSizes(n)).toEqual(sizes);
  });

  it('never writes boilerplate, a fragment or a sentence its source flags, and shows a sentence without its numbered notes', () => {
    const excerpt =
      'This note explains how the bridge is inspected. The bridge carried 112,000 vehicles a day in 2019.[citation needed] ' +
      'The main span was repainted in 2021.[4] Three causes of corrosion are commonly given:\n\n' +
      'Golden Gate Bridge Highway and Transportation District, Engineering Section.';
    const out = sectionWriter.offline({
      section: { title: 'Traffic', purpose: 'traffic and upkeep' },
      claims: [
        { id: 'C1', statement: 'The bridge carried 112,000 vehicles a day in 2019.', evidenceIds: ['E1'] },
        { id: 'C2', statement: 'The main span was repainted in 2021.', evidenceIds: ['E1'] },
        { id: 'C3', statement: 'This note explains how the bridge is inspected.', evidenceIds: ['E1'] },
        { id: 'C4', statement: 'Three causes of corrosion are commonly given.', evidenceIds: ['E1'] },
        { id: 'C5', statement: 'Golden Gate Bridge Highway and Transportation District, Engineering Section.', evidenceIds: ['E1'] },
      ],
      evidence: [{ id: 'E1', excerpt }],
    });
    // "[citation needed]": its own source does not stand behind it (0165); "[4]": the source cites something for it.
    expect(out.paragraphs.flatMap((p) => p.sentences.map((x) => x.text))).toEqual(['The main span was repainted in 2021.']);
  });
});

import { proseFault } from '../../../src/offline/nlp/prose-faults';
import { briefAnswer } from '../../../src/roles/framer';
import { sectionWriter } from '../../../src/roles';
import { LAKE_QUESTION as question, LEVEL_DISPUTE } from '../../fixtures/lake-varen-disputes';

/* Issue 25 as the demo's report read after 0112 (decision 0127): an answer in brief without its bases, a paragraph of
 * leftovers. */

describe('the answer in brief', () => {
  const level = LEVEL_DISPUTE;
  const cause = { sides: ['Irrigation withdrawals did not cause the decline.', 'Irrigation withdrawals caused the decline.'] };

  // The sides' periods differ (2015–2024, 2015–2023): each figure says its own (decision 0138).
  it('gives each disputed figure the basis the dispute states for it, and names the dispute', () => {
    expect(briefAnswer({ question, disputes: [level, cause] })).toEqual([
      {
        text: 'In brief, the sources disagree on how far the water level fell (4.2 metres between 2015 and 2024 comparing annual means, 6.1 metres between 2015 and 2024 comparing seasonal extremes and 3.9 metres between 2015 and 2023 on the annual-mean series), as set out under "Where the sources disagree"; they are divided on whether irrigation withdrawals caused the decline.',
        evidenceIds: [],
      },
    ]);
  });

  it('a basis bracketed after a figure is its own, each figure reads its own clause', () => {
    const area = {
      sides: ['Lake Varen has lost 18% of its surface area.', 'Lake Varen has lost 27% of its surface area.'],
      reason: 'The loss of surface area lies between 18% (annual mean) and 27% (autumn minimum); at the September level it is 24%.',
    };
    const [brief] = briefAnswer({ question: 'How much of its surface area has Lake Varen lost?', disputes: [area] });
    expect(brief!.text).toContain('(18% (annual mean) and 27% (autumn minimum))');
  });

  it('names no dispute that shares only the asking words with the question ("how far", decision 0166)', () => {
    const licences = {
      sides: [
        'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
        'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.',
      ],
    };
    const asked = 'How far did the water level of Lake Varen fall between 2015 and 2024, and why do the published figures differ?';
    const [brief] = briefAnswer({ question: asked, disputes: [licences, level] });
    expect(brief!.text).toContain('how far the water level fell');
    expect(brief!.text).not.toContain('licences');
    expect(briefAnswer({ question: asked, disputes: [licences] })).toEqual([]);
  });

  it('names a dispute of the kind the question asks: "when" is not answered by how far (lake-varen q02, decision 0166)', () => {
    const onset = {
      sides: [
        'The decline started before large-scale irrigation.',
        'The year-on-year decline began in the first full year of large-scale canal operation.',
      ],
    };
    const when = "When did the decline of Lake Varen's water level begin?";
    expect(briefAnswer({ question: when, disputes: [level, onset] }).map((b) => b.text)).toEqual([
      'In brief, the sources are divided on when the decline started.',
    ]);
    expect(briefAnswer({ question: when, disputes: [level] })).toEqual([]);
    // Each clause its own kind: "what caused" by whether, "how large" by how far; the onset is not asked.
    const [both] = briefAnswer({ question, disputes: [level, cause, onset] });
    expect(both!.text).toContain('how far the water level fell');
    expect(both!.text).toContain('whether irrigation withdrawals caused the decline');
    expect(both!.text).not.toContain('when the decline started');
  });

  it('without a basis the figures are given with the dispute named, never as findings', () => {
    const [brief] = briefAnswer({ question, disputes: [{ sides: level.sides.slice(0, 2) }] });
    expect(brief!.text).toBe(
      'In brief, the sources disagree on how far the water level fell (4.2 metres on the annual-mean series and 6.1 metres), as set out under "Where the sources disagree".',
    );
  });

  it('a figure that shares its clause with another is given no basis from it', () => {
    const [brief] = briefAnswer({
      question,
      disputes: [
        {
          sides: level.sides.slice(1, 2).concat('The water level fell by 5.0 metres.'),
          reason: 'The 6.1 m and the 5.0 m compare seasonal extremes.',
        },
      ],
    });
    expect(brief!.text).not.toMatch(/comparing/);
  });
});

type Evidence = { id: string; excerpt: string; sourceId: string; start: number };

function write(title: string, evidence: Evidence[]) {
  const out = sectionWriter.offline({
    section: { title, purpose: '' },
    claims: evidence.map((e, i) => ({ id: `C${i}`, statement: e.excerpt, evidenceIds: [e.id] })),
    evidence,
  });
  return out.paragraphs.map((p) => p.sentences.map((s) => s.text));
}

describe('one theme per paragraph', () => {
  const title = "How large was the decline of Lake Varen's water level?";
  // The demo's "How large …" section after 0112: the sources that gave one sentence each made its last paragraph.
  const area = [
    'At the 2024 annual mean level, the surface area of the lake was 38.1 km², compared with 46.5 km² in 2015.',
    'The reduction in outflow at Lodegate absorbed most of the change: as the lake fell below the weir crest, less water left the lake downstream.',
  ];
  const worst = [
    'Put simply, the lake is more than six metres lower at its worst than it was before the decline.',
    'At the autumn 2024 low, the open-water area was 33.9 km², compared with 46.5 km² in spring 2015.',
  ];
  const shore = 'Because the northern shore is very flat, a small change in level exposes a large area.';
  const growers =
    "The growers' association notes that figures above six metres compare the highest spring level with the lowest autumn level, which exaggerates the change.";
  const fish = 'Fish stocks are reported to have recovered after restocking.';
  const evidence: Evidence[] = [
    { id: 'a1', excerpt: area[0]!, sourceId: 'A', start: 0 },
    { id: 'a2', excerpt: area[1]!, sourceId: 'A', start: 200 },
    { id: 'w1', excerpt: worst[0]!, sourceId: 'W', start: 0 },
    { id: 'w2', excerpt: worst[1]!, sourceId: 'W', start: 200 },
    { id: 's1', excerpt: shore, sourceId: 'S', start: 0 },
    { id: 'f1', excerpt: fish, sourceId: 'F', start: 0 },
    { id: 'g1', excerpt: growers, sourceId: 'G', start: 0 },
  ];

  it('places a source’s only sentence with the paragraph of its theme; one of no theme closes the paragraph before it', () => {
    // Left out, it would lose a key point as often as not (velora-recall q02's "The count covers only fires …").
    // "Put simply," is left out of the displayed sentence: it restates a sentence the report does not show before it.
    const shown = worst.map((s) => s.replace(/^Put simply, the/, 'The'));
    expect(write(title, evidence)).toEqual([
      [...area, shore],
      [...shown, growers, fish],
    ]);
  });

  it('loose sentences with no paragraph of their theme share one, in order', () => {
    const dry = 'The summer of 2018 was very dry, and the lake fell by 0.8 m that summer.';
    const dry2 = 'In the dry summer of 2022 the lake fell by a further 0.9 m.';
    const paragraphs = write(title, [
      ...evidence.slice(0, 2),
      { id: 'd1', excerpt: dry, sourceId: 'D1', start: 0 },
      { id: 'd2', excerpt: dry2, sourceId: 'D2', start: 0 },
    ]);
    expect(paragraphs).toEqual([area, [dry, dry2]]);
  });

  it('a section keeps two sentences when only loose ones are left', () => {
    const paragraphs = write(title, [
      { id: 's1', excerpt: shore, sourceId: 'S', start: 0 },
      { id: 'f1', excerpt: fish, sourceId: 'F', start: 0 },
    ]);
    expect(paragraphs.flat().length).toBeGreaterThanOrEqual(2);
  });
});

describe('python-stdlib examples are code, not prose (lint 1.0 per 100 sentences)', () => {
  it.each([
    'data = [ ("Monty Python Live at the Hollywood Bowl", 1982, 7.9), ("Monty Python\'s Life of Brian", 1979, 8.0), ] cur.executemany("INSERT INTO movie VALUES(?,?,?)", data) con.commit()',
    "Traceback (most recent call last):... pickle.UnpicklingError: global 'os.system' is forbidden >>> restricted_loads(b'cbuiltins')",
  ])('never a report sentence: %s', (text) => {
    expect(proseFault(text)?.kind).toBe('code');
  });

  it.each([
    'If maxsize is set to None, the LRU feature is disabled and the cache can grow without bound.',
    'The data = argument is optional.',
    'Traceback objects are created when an exception occurs.',
  ])('prose stays prose: %s', (text) => {
    expect(proseFault(text)?.kind).not.toBe('code');
  });
});

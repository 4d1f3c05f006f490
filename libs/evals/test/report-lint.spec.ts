import type { ReportJson } from '@dossier/contracts';
import { formatLint, lintReport, type LintKind } from '../src';

/*
 * The report lint's own table (issue 25, decision 0045): each kind caught on a constructed report, and clean sentences
 * (identifiers opening a sentence, a colon inside a sentence, abbreviations, quoted speech) not flagged.
 */

type Section = ReportJson['sections'][number];

function report(sections: Section[], extra: Partial<Pick<ReportJson, 'claims' | 'contradictions'>> = {}): ReportJson {
  return {
    runId: '0b5c6f0e-7d59-4a51-9a0e-2f3a4b5c6d7e',
    question: 'What happened?',
    status: 'completed',
    engine: 'offline',
    createdAt: '2026-12-01T00:00:00.000Z',
    sections,
    evidence: {
      E1: { sourceId: 'S1', excerpt: 'x', start: 0, end: 1, claimIds: [] },
      E2: { sourceId: 'S2', excerpt: 'y', start: 0, end: 1, claimIds: [] },
    },
    claims: extra.claims ?? {},
    contradictions: extra.contradictions ?? [],
    sources: {
      S1: { number: 1, url: 'corpus://c/a.md', title: 'A', contentHash: 'sha256:0', fetchedAt: '2026-12-01T00:00:00.000Z' },
      S2: { number: 2, url: 'corpus://c/b.md', title: 'B', contentHash: 'sha256:1', fetchedAt: '2026-12-01T00:00:00.000Z' },
    },
    metrics: { iterations: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 1, searches: 1, sourcesFetched: 1 },
  };
}

const cited = (text: string) => ({ text, evidenceIds: ['E1'] });
const FILLER = ['The lake fell by 4.2 metres between 2015 and 2024.', 'Rainfall was 12% below the long-term average.'];

/** A report whose only body section holds the clean filler and `sentence`, under `title`. */
function oneSentence(sentence: string, title = 'Size of the decline'): ReportJson {
  return report([{ id: 'section-1', title, kind: 'body', paragraphs: [{ sentences: [...FILLER, sentence].map(cited) }] }]);
}

const kinds = (r: ReportJson): LintKind[] => lintReport(r).defects.map((d) => d.kind);
const details = (r: ReportJson): string[] => lintReport(r).defects.map((d) => `${d.kind}:${d.detail}`);

describe('report lint', () => {
  it.each([
    ['leaked', 'Annual withdrawals average 38 million m³ [E2].'],
    ['leaked', 'The level fell by <b>4.2 m</b> in nine years.'],
    ['leaked', 'The level fell by **4.2 m** in nine years.'],
    ['leaked', "The method can emulate a window's global object, then run all <script> tags together within that context."],
    ['leaked', 'Raised when a process run by :func:`run` returns a non-zero exit status.'],
    ['fragment:lead-in', 'Three explanations are commonly given:'],
    ['fragment:cut-off', 'The annual mean level fell by 4.2 m between 2015 and 2024; the decline began in 2015'],
    ['fragment:citation-needed', 'The causes of the decline are disputed.[citation needed] Most sources name irrigation.'],
    ['fragment:orphan-item', '4.2 m, comparing annual mean levels (Kessmark Regional Water Authority);'],
    ['fragment:orphan-item', 'and the smallest in 2017, when the winter was wet.'],
    ['fragment:code', 'SELECT datname, age(datfrozenxid) FROM pg_database;'],
    ['fragment:code', '$ pg_dump -Fc mydb > db.dump'],
    ['leaked', 'git merge [-n] [--stat] [--no-commit] [--squash] [--[no-]edit] [-s <strategy>] [<commit>…]'],
    ['boilerplate:self-description', 'This note explains how water level and abstraction at Lake Varen are measured.'],
    ['boilerplate:self-description', 'It is meant as a reference for readers following the debate, not as a verdict on its causes.'],
    ['boilerplate:self-description', 'This timeline collects the main events in the story of the lake.'],
    // A document's publication line and its running header, clipped (lake-varen q02 quoted both; 0165).
    [
      'boilerplate:self-description',
      'Brennmoor Hydro Ltd. Public summary prepared for the Independent Review Panel on Lake Varen, 10 February 2025.',
    ],
    ['boilerplate:navigation', 'Brennmoor Dam: Summary of Operating Rules (Licence BH-07,...'],
    ['boilerplate:navigation', 'Not peer-reviewed; comments welcome.'],
    ['boilerplate:byline', 'Kessmark Regional Water Authority, Hydrometry Section.'],
    ['boilerplate:byline', 'By Anna Lind, Environment Correspondent.'],
    ['boilerplate:self-citation', 'Eskerford University Hydrology Group, Working Paper 23-07, revision 2 (March 2025).'],
    ['boilerplate:contact', 'Bug reports should be sent to the pgsql-bugs mailing list.'],
    ['boilerplate:contact', 'For questions, write to press@krwa.example.org.'],
    ['boilerplate:navigation', 'Prev Up Next'],
    [
      'boilerplate:marketing',
      'VARENBY — The Kessmark Regional Water Authority (KRWA) today announced that its programme has met its targets.',
    ],
    ['boilerplate:marketing', 'Crystal-clear water, quiet beaches and great fishing: welcome to Lake Varen!'],
    [
      'boilerplate:pointer',
      'At the October minimum the exposed area was larger; see Technical Note TN-11 for how area is calculated from level.',
    ],
    ['boilerplate:pointer', 'For details of the gauges, see Section 4.'],
    // Cut at a bracket (decision 0132): it closes a bracket it never opened, or opens on an aside the words after continue.
    ['fragment:cut-off', 'RuntimeError), this exception class is raised when one of the workers terminated abruptly.'],
    ['fragment:cut-off', '(the default) and timeout is None (the default), block if necessary until a free slot is available.'],
    ['fragment:cut-off', '(also called light-weight processes or tasks) --- multiple threads of control sharing their global data space.'],
    ['fragment:cut-off', "'80', or '80,8080'), or None."],
    ['fragment:cut-off', 'See git-range-diff(1)) for details on the output format.'],
    ['leaked', '.. note:: The default changed in version 3.8.'],
    ['leaked', 'Pass ``text=True`` to get strings instead of bytes.'],
    ['boilerplate:byline', 'By the Eskerford University Hydrology Group.'],
  ])('catches %s: %s', (expected, sentence) => {
    const found = details(oneSentence(sentence));
    expect(found.some((d) => d === expected || d.startsWith(`${expected}:`))).toBe(true);
  });

  it.each([
    'jsonb stores a decomposed binary form of the JSON value, which is slower to write and faster to query.',
    'pg_dump writes a consistent snapshot of one database, even while it is in use.',
    'git restore --staged undoes git add for the paths given.',
    'git commit takes options such as [-a] in its synopsis, which mark them optional.',
    'The authority gives two figures: 38 million m³ metered at the intake, and 52 million m³ estimated by the university.',
    'Measured from the spring 2015 high (213.3 m a.s.l.) to the autumn 2024 low, the fall is 6.1 m.',
    '“Irrigation withdrawals did not cause the decline,” said its chair, Jonas Bremer.',
    'The Tessel Plain Growers’ Association represents 140 farms.',
    'VACUUM reclaims storage occupied by dead tuples.',
    'This form resets the current branch head to <commit> and possibly updates the index.',
    'The __init__ method of the class sets the default of `maxsize` to 128.',
    'The report of the review panel was published in March 2025.',
    'A summary prepared for the panel found that irrigation explains 60% of the deficit.',
    'The study was not peer-reviewed when the authority quoted it in March 2024.',
    'He paused, then said the level would recover by 2030 …',
    'Since version 2.23, git switch replaces the branch form of git checkout.',
    'The panel considers that both "2015" and "2017" are defensible answers.',
    'The level fell by 4.2 m between 2015 and 2024 (see Table 3).',
    'Residents see the shoreline retreat every summer.',
    // Brackets that are the sentence's own (decision 0132): enumerators, a half-open range, a smiley, code and quotes.
    'So during steps 2) and 3), if we would associate N/2 to a commit, then we know this is the best bisection point.',
    'The random number lies in the half-open interval [0.0, 1.0) on every platform.',
    'Observation: we cannot have more than 4G versions ;-) and more than 4G objects in a pack.',
    'The separator defaults to `)` when the option is given without a value.',
    'A section name may be any string that does not contain "]" or a newline.',
    'If block is True (the default) and timeout is None (the default), block if necessary until a free slot is available.',
    // "By" opening a statement is no byline (decision 0132).
    'By default, git commit opens an editor for the commit message.',
    'By the autumn of 2024 the level had fallen to 208.4 m a.s.l.',
    'By 2015 the lake had already lost a fifth of its area.',
    'By using --amend, you replace the tip of the current branch with a new commit.',
    // A glob's "**" beside a slash is the manual's pattern syntax, not Markdown bold (decisions 0131, 0132).
    'A leading "**" followed by a slash means match in all directories.',
    'For example, "abc/**" matches all files inside directory "abc", with infinite depth.',
  ])('does not flag clean prose: %s', (sentence) => {
    expect(lintReport(oneSentence(sentence)).defects).toEqual([]);
  });

  it('reads a source’s words as its own: no prompt leak in a verbatim quote, no Markdown in a "#" or a glob (decision 0132)', () => {
    const hook = 'The return value of object_hook will be used instead of the dict, so return a JSON object decoder result.';
    const quoted = oneSentence(hook);
    quoted.evidence['E1']!.excerpt = `object_hook is an optional function. ${hook}`;
    expect(lintReport(quoted).defects).toEqual([]);
    // Not in its excerpt (a model's sentence): instruction text is ours, leaked.
    expect(details(oneSentence(hook))).toEqual(['leaked:instruction text']);
    for (const clean of [
      'If you set the comment character # in the config, lines starting with it are ignored.',
      'The pattern "abc/**" matches all files inside directory abc, relative to the location of the file.',
    ])
      expect(lintReport(oneSentence(clean)).defects).toEqual([]);
    expect(details(oneSentence('## Options and defaults of the command.'))).toEqual(['leaked:Markdown syntax']);
  });

  it('catches a cited sentence whose passage its source flags ("[citation needed]"), shown without the marker (0165)', () => {
    const flagged = oneSentence('The causes of the decline are disputed.');
    flagged.evidence['E1'] = { ...flagged.evidence['E1']!, excerpt: 'The causes of the decline are disputed.[citation needed]' };
    // Every sentence of the section cites E1 here: each is counted.
    expect(details(flagged)).toEqual(Array.from({ length: 3 }, () => 'fragment:citation-needed in its evidence'));
    const noted = oneSentence('The causes of the decline are disputed.');
    noted.evidence['E1'] = { ...noted.evidence['E1']!, excerpt: 'The causes of the decline are disputed.[4]' };
    expect(details(noted)).toEqual([]);
  });

  it('catches template headings, not headings from the sources or the question', () => {
    for (const title of [
      'How does PostgreSQL work?',
      'What has changed recently about file system backups?',
      'What independent sources confirm the figures for file system backups?',
      'What goes wrong if I get dedicated postgresql server wrong?',
    ])
      expect(kinds(oneSentence(FILLER[0]!.replace('4.2', '4.3'), title))).toEqual(['template-heading']);
    for (const title of ['Preventing transaction ID wraparound', "What caused the decline of Lake Varen's water level?"])
      expect(kinds(oneSentence(FILLER[0]!.replace('4.2', '4.3'), title))).toEqual([]);
  });

  it('catches a body section of one sentence', () => {
    const r = report([{ id: 'section-1', title: 'Size', kind: 'body', paragraphs: [{ sentences: [cited(FILLER[0]!)] }] }]);
    expect(details(r)).toEqual(['short-section:1 sentence']);
  });

  it('catches a template named as an open question in the conclusion, not a question a reader asked (0166)', () => {
    const body: Section = { id: 'section-1', title: 'Size', kind: 'body', paragraphs: [{ sentences: FILLER.map(cited) }] };
    const open = (questions: string[]): Section => ({
      id: 'conclusion',
      title: 'Conclusion',
      kind: 'framing',
      paragraphs: [
        {
          sentences: [
            {
              text: `The sources found do not settle these questions, which stay open: ${questions.map((q) => `"${q}"`).join('; ')}.`,
              evidenceIds: [],
            },
          ],
        },
      ],
    });
    expect(
      details(
        report([
          body,
          open(['How is Arvenna measured, and what mechanisms explain it?', 'Did the authority revise its 2015 level series?']),
        ]),
      ),
    ).toEqual(['template-heading:open question']);
    expect(details(report([body, open(['Did the authority revise its 2015 level series?'])]))).toEqual([]);
  });

  it('catches repeats: within the body, and a conclusion repeating a body sentence; the introduction may restate a finding', () => {
    const body: Section = { id: 'section-1', title: 'Size', kind: 'body', paragraphs: [{ sentences: [...FILLER, FILLER[0]!].map(cited) }] };
    expect(details(report([body]))).toEqual(['duplicate:repeats a body sentence']);
    const clean: Section = { ...body, paragraphs: [{ sentences: FILLER.map(cited) }] };
    const intro: Section = { id: 'introduction', title: 'Introduction', kind: 'framing', paragraphs: [{ sentences: [cited(FILLER[0]!)] }] };
    const conclusion: Section = {
      id: 'conclusion',
      title: 'Conclusion',
      kind: 'framing',
      paragraphs: [{ sentences: [cited(FILLER[1]!)] }],
    };
    expect(details(report([intro, clean]))).toEqual([]);
    expect(details(report([intro, clean, conclusion]))).toEqual(['duplicate:the conclusion repeats a body sentence']);
  });

  it('catches a body sentence stating a side of a recorded dispute', () => {
    const r = report(
      [
        {
          id: 'section-1',
          title: 'Causes',
          kind: 'body',
          paragraphs: [{ sentences: [...FILLER, 'Irrigation withdrawals caused the decline of the lake.'].map(cited) }],
        },
      ],
      {
        claims: {
          C1: { text: 'Irrigation withdrawals caused the decline.', status: 'contested', evidenceIds: ['E1'] },
          C2: { text: 'Irrigation withdrawals did not cause the decline.', status: 'contested', evidenceIds: ['E2'] },
        },
        contradictions: [{ claimIds: ['C1', 'C2'], kind: 'negation', note: '' }],
      },
    );
    expect(kinds(r)).toEqual(['dispute-in-body']);
  });

  it('two claims of one source are no dispute between sources: a body sentence stating one is not counted (decision 0098)', () => {
    const sections: Section[] = [
      {
        id: 'section-1',
        title: 'Test runner',
        kind: 'body',
        paragraphs: [
          {
            sentences: [
              ...FILLER,
              'Otherwise, all tests are run by the runner.',
              'Irrigation withdrawals caused the decline of the lake.',
            ].map(cited),
          },
        ],
      },
    ];
    const claims = {
      C1: { text: 'Irrigation withdrawals caused the decline.', status: 'contested' as const, evidenceIds: ['E1'] },
      C2: { text: 'Irrigation withdrawals did not cause the decline.', status: 'contested' as const, evidenceIds: ['E1'] },
    };
    // Recorded (by a run before the rule) or found when linting, one source's two statements are no dispute.
    expect(kinds(report(sections, { claims, contradictions: [{ claimIds: ['C1', 'C2'], kind: 'negation', note: '' }] }))).toEqual([]);
    expect(kinds(report(sections, { claims }))).toEqual([]);
    // From two sources, the unpaired pair is found by the shared detector.
    expect(kinds(report(sections, { claims: { ...claims, C2: { ...claims.C2, evidenceIds: ['E2'] } } }))).toEqual(['dispute-in-body']);
  });

  it('two claims describing different terms of a manual are no dispute: a body sentence stating one is not counted (0154)', () => {
    const body: Section = {
      id: 'section-1',
      title: 'Defaults',
      kind: 'body',
      paragraphs: [{ sentences: [...FILLER, 'Entries older than this time are removed; defaults to 90 days.'].map(cited) }],
    };
    const claims = {
      C1: { text: 'Entries older than this time are removed; defaults to 90 days.', status: 'contested' as const, evidenceIds: ['E1'] },
      C2: { text: 'Entries older than this time are removed; defaults to 30 days.', status: 'contested' as const, evidenceIds: ['E2'] },
    };
    const withTerms = (a?: string, b?: string): ReportJson => {
      const r = report([body], { claims, contradictions: [{ claimIds: ['C1', 'C2'], kind: 'number', note: '' }] });
      if (a) r.evidence['E1'] = { ...r.evidence['E1']!, term: a };
      if (b) r.evidence['E2'] = { ...r.evidence['E2']!, term: b };
      return r;
    };
    expect(kinds(withTerms())).toEqual(['dispute-in-body']);
    expect(kinds(withTerms('gc.reflogExpire', 'gc.reflogExpire'))).toEqual(['dispute-in-body']);
    expect(kinds(withTerms('gc.reflogExpire'))).toEqual(['dispute-in-body']);
    expect(kinds(withTerms('gc.reflogExpire', 'gc.reflogExpireUnreachable'))).toEqual([]);
  });

  it('catches a disagreements section holding anything but disagreements', () => {
    const r = report([
      { id: 'section-1', title: 'Size', kind: 'body', paragraphs: [{ sentences: FILLER.map(cited) }] },
      {
        id: 'contradictions',
        title: 'Where the sources disagree',
        kind: 'contradictions',
        paragraphs: [
          {
            sentences: ['The lake lost 27% of its area.', 'The lake lost 18% of its area.', 'Bug reports go to the mailing list.'].map(
              cited,
            ),
          },
          { sentences: [cited('The lake lost 18% of its area in the drought years.')] },
        ],
      },
    ]);
    expect(details(r).sort()).toEqual(['disagreements:boilerplate: contact', 'disagreements:one sentence, not two sides']);
  });

  it('counts a disagreement repeating a body sentence; our own closing sentence, uncited, is not a fault (0096)', () => {
    const reason = 'Figures above six metres compare the highest spring level with the lowest autumn level.';
    const r = report([
      { id: 'section-1', title: 'Size', kind: 'body', paragraphs: [{ sentences: [...FILLER, reason].map(cited) }] },
      {
        id: 'contradictions',
        title: 'Where the sources disagree',
        kind: 'contradictions',
        paragraphs: [
          { sentences: [...['The lake lost 27% of its area.', 'The lake lost 18% of its area.', reason].map(cited)] },
          {
            sentences: [
              ...['The level fell by 4.2 metres.', 'The level fell by 6.1 metres.'].map(cited),
              { text: 'Neither figure says over which period or on which basis it was measured.', evidenceIds: [] },
            ],
          },
        ],
      },
    ]);
    expect(details(r)).toEqual(['duplicate:the disagreements repeat a body sentence']);
  });

  it('judges fragments on cited sentences only, and prints each kind with its examples', () => {
    const intro: Section = {
      id: 'introduction',
      title: 'Introduction',
      kind: 'framing',
      paragraphs: [{ sentences: [{ text: 'The report is organised in 2 sections: Size and Causes.', evidenceIds: [] }] }],
    };
    const r = report([
      intro,
      {
        id: 'section-1',
        title: 'How does VACUUM work?',
        kind: 'body',
        paragraphs: [{ sentences: [...FILLER, 'Three causes are given:'].map(cited) }],
      },
    ]);
    const lint = lintReport(r);
    expect(lint.sentences).toBe(4);
    expect(lint.byKind).toMatchObject({ fragment: 1, 'template-heading': 1, boilerplate: 0 });
    const text = formatLint(lint).join('\n');
    expect(text).toMatch(/^Report lint: 2 defects in 4 sentences \(50\.0 per 100\)/);
    expect(text).toContain('  fragment: 1\n    - (lead-in) [How does VACUUM work?] “Three causes are given:”');
  });

  describe('back-reference (decision 0112)', () => {
    const body = (sentences: { text: string; evidenceIds: string[] }[][]): ReportJson =>
      report([{ id: 'section-1', title: 'Size of the decline', kind: 'body', paragraphs: sentences.map((s) => ({ sentences: s })) }]);
    const other = (text: string) => ({ text, evidenceIds: ['E2'] });

    it.each([
      [
        'opening a paragraph',
        [[cited('Its level has fallen sharply since the mid-2010s.'), cited(FILLER[0]!)]],
        '"Its" opens the paragraph',
      ],
      [
        'after another source’s sentence',
        [[cited(FILLER[0]!), other('Together these two factors account for roughly 70% of the water deficit.')]],
        '"Together these" follows another source',
      ],
      [
        'a stand-in noun with its verb',
        [[other(FILLER[1]!), cited('The figure compares the spring 2015 high of 213.3 m with the autumn 2024 low of 207.2 m.')]],
        '"The figure compares" follows another source',
      ],
      [
        'a dispute’s reason pointing at one thing',
        [[cited(FILLER[0]!), other('It is a larger number because it includes one full seasonal swing.')]],
        '"It" follows another source',
      ],
      ['a demonstrative', [[cited('These losses are not metered anywhere.'), cited(FILLER[0]!)]], '"These" opens the paragraph'],
      // A passive "it" points back though an expletive's words follow it (decision 0132).
      ['a passive "it"', [[cited('It will be used to launch the workers.'), cited(FILLER[0]!)]], '"It" opens the paragraph'],
      [
        'a passive "it" after another source',
        [[other(FILLER[1]!), cited('It was built to replace the old gauge network in 2016.')]],
        '"It" follows another source',
      ],
      ['"This is …"', [[cited('This is the default on every platform.'), cited(FILLER[0]!)]], '"This" opens the paragraph'],
      [
        'a side pointer',
        [[cited(FILLER[0]!), other('On this basis, the growers date the start of the decline to 2017.')]],
        '"On this basis" follows another source',
      ],
    ])('catches a pointing sentence %s', (_, paragraphs, detail) => {
      expect(details(body(paragraphs))).toEqual([`back-reference:${detail}`]);
    });

    it('catches the report’s own sentence pointing back at a quoted one', () => {
      const r = report([
        {
          id: 'introduction',
          title: 'Introduction',
          kind: 'framing',
          paragraphs: [{ sentences: [cited(FILLER[0]!), { text: 'It is organised in 2 sections: Size and Causes.', evidenceIds: [] }] }],
        },
      ]);
      expect(details(r)).toEqual(['back-reference:"It" follows a quoted sentence']);
    });

    it('does not flag a pointing sentence after its own source’s sentence, nor sentences that name what they mean', () => {
      const clean = body([
        [cited(FILLER[0]!), cited('Its level has fallen sharply since the mid-2010s.'), cited('These losses are not metered anywhere.')],
        [
          other('It is estimated that the lake lost 18% of its area.'),
          other('It is not possible to undo the drawdown within a decade.'),
          other('The figure of 52 million cubic metres is an estimate, not a measurement.'),
          other('Both the authority and the growers date the start to 2015.'),
          other('The decline was not uniform across the years.'),
        ],
      ]);
      expect(lintReport(clean).defects).toEqual([]);
      const framing = report([
        {
          id: 'introduction',
          title: 'Introduction',
          kind: 'framing',
          paragraphs: [{ sentences: [{ text: 'This report addresses the question: What happened?', evidenceIds: [] }, cited(FILLER[0]!)] }],
        },
        {
          id: 'contradictions',
          title: 'Where the sources disagree',
          kind: 'contradictions',
          paragraphs: [
            {
              sentences: [
                cited('Annual withdrawals average 38 million cubic metres.'),
                other('Annual withdrawals average 52 million cubic metres.'),
                { text: 'The two figures cover the same period, so the period does not account for the difference.', evidenceIds: [] },
              ],
            },
            {
              sentences: [
                cited('The number of licences fell from 1,240 to 610.'),
                other('The number of licences fell from 1,410 to 480.'),
                cited('The two series count different things; both show a fall of more than half.'),
              ],
            },
          ],
        },
      ]);
      expect(lintReport(framing).defects).toEqual([]);
    });
  });
});

import { MAX_CLAIMS_PER_SECTION, MAX_OUTLINE_CLAIMS, outlineArchitect } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.outlineArchitect;

const STATEMENTS = [
  'Solar panels supplied 5% of national power.',
  'Wind turbines in the north sea doubled output.',
  'Hydro dams hold 40 cubic kilometres of water.',
  'Nuclear plants ran at 90% capacity.',
  'Coal mines employed 12,000 workers.',
  'Gas pipelines leaked methane in 2021.',
  'Battery storage costs fell by half.',
  'Tidal power remains experimental.',
  'Geothermal wells reach 3 km depth.',
  'Biomass boilers burn wood pellets.',
];

function claimsOf(n: number) {
  return STATEMENTS.slice(0, n).map((statement, i) => ({ id: `C${i}`, statement, questionId: null }));
}

describe('outlineArchitect (offline)', () => {
  it('makes one section per sub-question, titled by the sub-question, in the order they were asked', () => {
    const { sections } = outlineArchitect.offline(base);
    const asked = base.questions.map((q) => q.text);
    for (const s of sections) expect(asked).toContain(s.title);
    const order = sections.map((s) => asked.indexOf(s.title));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const construction = sections.find((s) => s.claimIds.includes('C1'))!;
    expect(construction.title).toBe('When did construction of the Golden Gate Bridge begin and end?');
    // The main question has no section of its own when sub-questions were asked.
    expect(sections.map((s) => s.title)).not.toContain(base.question);
  });

  it('puts every claim in at most one section and never titles a section by a key phrase of the claims', () => {
    const questions = [{ id: 'Q0', text: 'Which energy sources supplied power?' }];
    const { sections } = outlineArchitect.offline({ ...base, questions, claims: claimsOf(10) });
    expect(sections.map((s) => s.title)).toEqual(['Which energy sources supplied power?']);
    const ids = sections.flatMap((s) => s.claimIds);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('opens a section with its most direct answer and leaves off-topic claims out', () => {
    const questions = [
      { id: 'Q1', text: 'What caused the decline of the lake?' },
      { id: 'Q2', text: 'How large was the decline of the lake?' },
    ];
    const claims = [
      { id: 'C1', statement: 'The lake is popular with anglers in the lake district.', questionId: 'Q1' },
      { id: 'C2', statement: 'Irrigation withdrawals caused the decline of the lake.', questionId: null },
      { id: 'C3', statement: 'The level of the lake fell by 4.2 metres during the decline.', questionId: null },
      { id: 'C4', statement: 'The hatchery released 180,000 fry in 2023.', questionId: 'Q1' },
      { id: 'C5', statement: 'The decline of the lake was studied by the university.', questionId: 'Q2' },
    ];
    const question = 'What caused the decline of the lake, and how large was it?';
    const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
    expect(sections.map((s) => [s.title, s.claimIds[0]])).toEqual([
      ['What caused the decline of the lake?', 'C2'],
      ['How large was the decline of the lake?', 'C3'],
    ]);
    expect(sections.flatMap((s) => s.claimIds)).not.toContain('C4');
  });

  describe('titles from the sources and the question (issue 25 item 3, decision 0089)', () => {
    const question = 'How do I prevent transaction ID wraparound in PostgreSQL?';
    const questions = [
      { id: 'Q0', text: question },
      { id: 'Q1', text: 'How does transaction ID wraparound work?' },
    ];
    const claim = (id: string, statement: string, heading?: string) => ({
      id,
      statement,
      questionId: 'Q1',
      ...(heading ? { heading } : {}),
    });

    it('names a perspective’s section by the heading its evidence sits under, never by the template', () => {
      const claims = [
        claim(
          'C1',
          'To prevent transaction ID wraparound in PostgreSQL, every table must be vacuumed at least once every two billion transactions.',
        ),
        claim(
          'C2',
          'PostgreSQL transaction ID wraparound work is done by VACUUM, which freezes old rows.',
          'Preventing Transaction ID Wraparound Failures',
        ),
        claim(
          'C3',
          'Transaction ID wraparound work in PostgreSQL compares IDs modulo 2^32.',
          'Preventing Transaction ID Wraparound Failures',
        ),
        claim('C4', 'The autovacuum daemon does wraparound work for transaction IDs in PostgreSQL.', 'The Autovacuum Daemon'),
      ];
      const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
      const titles = sections.map((s) => s.title);
      expect(titles).not.toContain('How does transaction ID wraparound work?');
      expect(titles).toContain('Preventing Transaction ID Wraparound Failures');
      // The question keeps its own words as the title of the section that answers it.
      expect(titles[0]).toBe(question);
      const ids = sections.flatMap((s) => s.claimIds);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('a document’s title names a section only when most of its claims come from that document (decision 0102)', () => {
      const title = 'Transaction ID Wraparound: A PostgreSQL Working Paper';
      const claims = [
        claim(
          'C1',
          'To prevent transaction ID wraparound in PostgreSQL, every table must be vacuumed at least once every two billion transactions.',
        ),
        {
          ...claim('C2', 'PostgreSQL transaction ID wraparound work is done by VACUUM, which freezes old rows.', title),
          headingIsTitle: true,
        },
        { ...claim('C3', 'Transaction ID wraparound work in PostgreSQL compares IDs modulo 2^32.', title), headingIsTitle: true },
        claim('C4', 'Transaction ID wraparound work in PostgreSQL is logged by the server.'),
        claim('C5', 'Transaction ID wraparound work in PostgreSQL can be monitored with age().'),
        claim('C6', 'Transaction ID wraparound work in PostgreSQL warns ten million transactions ahead.'),
      ];
      const titles = outlineArchitect.offline({ question, questions, claims, feedback: null }).sections.map((s) => s.title);
      expect(titles).not.toContain(title);
      // As a heading inside a document, the same two claims would name it.
      const headed = claims.map((c) => ({ ...c, headingIsTitle: false }));
      expect(outlineArchitect.offline({ question, questions, claims: headed, feedback: null }).sections.map((s) => s.title)).toContain(
        title,
      );
    });

    it('a perspective’s section with no heading joins the section of the clause its claims answer best', () => {
      const claims = [
        claim(
          'C1',
          'To prevent transaction ID wraparound in PostgreSQL, every table must be vacuumed at least once every two billion transactions.',
        ),
        claim('C2', 'PostgreSQL transaction ID wraparound work is done by VACUUM, which freezes old rows.'),
        claim('C3', 'Transaction ID wraparound work in PostgreSQL compares IDs modulo 2^32.'),
      ];
      const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
      expect(sections.map((s) => s.title)).toEqual([question]);
      expect(sections[0]!.claimIds.sort()).toEqual(['C1', 'C2', 'C3']);
    });

    it('a heading sharing only the question’s setting (a proper name such as PostgreSQL) names no section (decision 0098)', () => {
      const claims = [
        claim(
          'C1',
          'To prevent transaction ID wraparound in PostgreSQL, every table must be vacuumed at least once every two billion transactions.',
        ),
        claim('C2', 'PostgreSQL transaction ID wraparound work is done by VACUUM, which freezes old rows.', 'PostgreSQL Server Events'),
        claim('C3', 'Transaction ID wraparound work in PostgreSQL compares IDs modulo 2^32.', 'PostgreSQL Server Events'),
      ];
      const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
      expect(sections.map((s) => s.title)).toEqual([question]);
    });

    it('claims under unrelated headings are left out when the question’s section is full (decision 0098)', () => {
      const full = Array.from({ length: 30 }, (_, i) =>
        claim(
          `C${i}`,
          `To prevent transaction ID wraparound in PostgreSQL, table ${i + 1} must be vacuumed every ${i + 2} billion transactions.`,
        ),
      ).map((c) => ({ ...c, questionId: 'Q0' }));
      const off = [
        claim('W1', 'Transaction ID wraparound work emits a warning event in the server log.', "Event: 'warning'"),
        claim('W2', 'Transaction ID wraparound work raises a warning event for old rows.', "Event: 'warning'"),
      ];
      const { sections } = outlineArchitect.offline({ question, questions, claims: [...full, ...off], feedback: null });
      expect(sections.map((s) => s.title)).toEqual([question]);
      expect(sections.flatMap((s) => s.claimIds)).not.toContain('W1');
    });

    it('a heading sharing no word with the question names no section: its claims join the question’s (decision 0098)', () => {
      const claims = [
        claim(
          'C1',
          'To prevent transaction ID wraparound in PostgreSQL, every table must be vacuumed at least once every two billion transactions.',
        ),
        claim('C2', 'PostgreSQL transaction ID wraparound work is done by VACUUM, which freezes old rows.', "Event: 'warning'"),
        claim('C3', 'Transaction ID wraparound work in PostgreSQL compares IDs modulo 2^32.', "Event: 'warning'"),
      ];
      const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
      expect(sections.map((s) => s.title)).toEqual([question]);
      expect(sections[0]!.claimIds.sort()).toEqual(['C1', 'C2', 'C3']);
    });
  });

  it('a question that asks one thing is itself the first section', () => {
    const question = 'When did construction of the Golden Gate Bridge begin?';
    const questions = [
      { id: 'Q0', text: question },
      { id: 'Q1', text: 'How is the Golden Gate Bridge handled in practice?' },
    ];
    const claims = [{ id: 'C1', statement: 'Construction of the Golden Gate Bridge began in 1933.', questionId: null }];
    expect(outlineArchitect.offline({ question, questions, claims, feedback: null }).sections[0]!.title).toBe(question);
  });

  it('states a thing once: a restatement of a claim already placed is left out', () => {
    const claims = [
      { id: 'C1', statement: 'Construction of the Golden Gate Bridge began in 1933.', questionId: 'Q1' },
      { id: 'C2', statement: 'Construction of the Golden Gate Bridge began in 1933, the authority says.', questionId: 'Q2' },
      { id: 'C3', statement: 'Construction of the Golden Gate Bridge began in 1934.', questionId: 'Q2' },
    ];
    const ids = outlineArchitect.offline({ ...base, claims }).sections.flatMap((s) => s.claimIds);
    expect(ids).toContain('C1');
    expect(ids).not.toContain('C2');
    // A different figure is a different statement (a disagreement, not a repeat).
    expect(ids).toContain('C3');
  });

  describe('which claims the report keeps (docs/decisions/0039)', () => {
    const question = 'What does git commit --amend do, and is it safe to amend a commit I already pushed?';
    const questions = [
      { id: 'Q1', text: 'What does git commit --amend do?' },
      { id: 'Q2', text: 'Is git commit amend safe to amend a commit I already pushed?' },
      { id: 'Q3', text: 'Why do sources report different figures for git commit amend?' },
    ];

    it('scores a claim with what it stands under in its source: a definition under the term line the question names', () => {
      // The description under "--amend" shares no word with the question: alone it is off topic.
      const claim = { id: 'C1', statement: 'Replaces the tip of the current branch by creating a new one.', questionId: null };
      const placed = (c: typeof claim & { defines?: string; context?: string }) =>
        outlineArchitect.offline({ question, questions, claims: [c], feedback: null }).sections.flatMap((s) => s.claimIds);
      expect(placed(claim)).toEqual([]);
      expect(placed({ ...claim, defines: '--amend', context: '--amend' })).toEqual(['C1']);
    });

    it('keeps the claims that answer the question itself, however many, before those a broad sub-question shares words with', () => {
      const answers = Array.from({ length: 16 }, (_, i) => ({
        id: `A${i}`,
        statement: `Running git commit --amend replaces the last commit with a new commit (case ${i + 1}).`,
        questionId: null,
      }));
      // Each shares the methodologist's "different figures" question's words and little of the question itself: each
      // sub-question taking its own best claims gave them a section of twelve and cut the answers to twelve.
      const noise = Array.from({ length: 30 }, (_, i) => ({
        id: `N${i}`,
        statement: `The figures for git commit differ between the tables of chapter ${i + 3}.`,
        questionId: null,
      }));
      const { sections } = outlineArchitect.offline({ question, questions, claims: [...answers, ...noise], feedback: null });
      const ids = sections.flatMap((s) => s.claimIds);
      expect(ids.filter((id) => id.startsWith('A')).sort()).toEqual(answers.map((a) => a.id).sort());
      expect(ids.length).toBeLessThanOrEqual(MAX_OUTLINE_CLAIMS);
    });

    it('counts a claim’s source: the page whose other claims answer the question lifts its terse ones', () => {
      const page = (source: string, prefix: string) => [
        {
          id: `${prefix}1`,
          statement: 'git commit --amend replaces the tip of the current branch.',
          questionId: null,
          sourceIds: [source],
        },
        {
          id: `${prefix}2`,
          statement: 'Amending a commit that was already pushed rewrites published history.',
          questionId: null,
          sourceIds: [source],
        },
        {
          id: `${prefix}3`,
          statement: 'Amending with git commit --amend is safe only for a commit nobody has pulled.',
          questionId: null,
          sourceIds: [source],
        },
      ];
      const terse = (id: string, source: string) => ({
        id,
        statement: 'The new commit has the same parents and author.',
        questionId: null,
        sourceIds: [source],
      });
      const claims = [...page('S1', 'P'), terse('T1', 'S1'), terse('T2', 'S2')];
      // T1 and T2 say the same; only T1 comes from the page that answers, so it is the one kept (the other restates it).
      const ids = outlineArchitect.offline({ question, questions, claims, feedback: null }).sections.flatMap((s) => s.claimIds);
      expect(ids).toContain('T1');
      expect(ids).not.toContain('T2');
    });

    it('ranks the claims of the page the question names first, without cutting the others’ tail (decision 0131)', () => {
      const asked = 'Where does git restore take the content from?';
      // Seventy claims of other pages share more of the question's words than the named page's terse default does; the
      // section holds thirty.
      const others = Array.from({ length: 70 }, (_, i) => ({
        id: `N${i}`,
        statement: `Chapter ${i + 3} shows the content of a git file restored in ${i + 2} steps.`,
        questionId: null,
        sourceIds: [`S${i}`],
      }));
      const page = (named: boolean) =>
        [
          { id: 'R1', statement: 'By default git restore takes the content from the index.' },
          { id: 'R2', statement: 'With --staged, git restore takes the content from HEAD.' },
          { id: 'K', statement: 'If neither option is specified, by default the working tree is restored.' },
        ].map((c) => ({ ...c, questionId: null, sourceIds: ['R'], ...(named ? { fromNamedPage: true } : {}) }));
      const outlined = (named: boolean) =>
        outlineArchitect
          .offline({ question: asked, questions: [], claims: [...others, ...page(named)], feedback: null })
          .sections.flatMap((s) => s.claimIds);
      expect(outlined(false)).not.toContain('K');
      const ids = outlined(true);
      expect(ids).toContain('K');
      // The bonus orders the list; the relevance floor still goes by the claims' own relevance.
      expect(ids.length).toBe(outlined(false).length);
    });
  });

  it('makes a section for what the feedback asks about', () => {
    const { sections } = outlineArchitect.offline({ ...base, feedback: 'Add a section on seismic upgrades.' });
    expect(sections[0]!.title).toBe('Seismic Upgrades');
    expect(sections[0]!.claimIds).toEqual(['C4']);
  });

  it('returns one empty section titled by the question without claims', () => {
    expect(outlineArchitect.offline({ ...base, claims: [] }).sections).toEqual([
      { title: base.question, purpose: `Answers: ${base.question}`, claimIds: [] },
    ]);
  });

  it('a model answer that puts a claim in two sections: named for the repair request, kept in the first section only', () => {
    const bad = {
      sections: [
        { title: 'A', purpose: '', claimIds: ['C1'] },
        { title: 'B', purpose: '', claimIds: ['C1', 'C9'] },
      ],
    };
    const input = { question: 'q?', questions: [], claims: [{ id: 'C1', statement: 's', questionId: null }], feedback: null };
    const checked = outlineArchitect.check!(input, bad);
    expect(checked.issues).toEqual([
      'sections use claim ids that were not given: C9',
      'claim C1 is in two sections (again in section 2)',
      'section 2 ("B") uses no claim: every section must list the ids of the claims it is written from',
    ]);
    // A section left without claims is a heading over nothing: the kept answer leaves it out (decision 0040).
    expect(checked.cleaned).toEqual({ sections: [{ title: 'A', purpose: '', claimIds: ['C1'] }] });
    expect(checked.dropped).toBe(2);
  });

  describe('interview memos (issue 14): a reviewer’s feedback applies to them as to the sub-questions', () => {
    const question = 'What caused the decline of the lake?';
    const claims = [
      { id: 'C1', statement: 'Irrigation withdrawals caused the decline of the lake.', questionId: null },
      { id: 'C2', statement: 'Abstraction permits were issued by the water regulator in 2016.', questionId: null },
      { id: 'C3', statement: 'Rainfall was 18 percent below average.', questionId: null },
      { id: 'C4', statement: 'The regulator capped abstraction permits in 2023.', questionId: null },
    ];
    const memos = [
      {
        title: 'Ada Lind, hydrologist',
        purpose: 'Interview memo in the voice of Ada Lind (hydrologist): rainfall and inflow',
        claimIds: ['C3'],
      },
      {
        title: 'Per Holm, water regulator',
        purpose: 'Interview memo in the voice of Per Holm (water regulator): permits and limits',
        claimIds: ['C2', 'C4'],
      },
    ];
    const input = { question, questions: [{ id: 'Q1', text: question }], claims, memos, feedback: null };

    it("without feedback: the sub-question sections, then every memo with its own claims, in the analysts' order", () => {
      expect(outlineArchitect.offline(input).sections).toEqual([
        { title: question, purpose: `Answers: ${question}`, claimIds: ['C1'] },
        memos[0],
        memos[1],
      ]);
    });

    it('a request that names an analyst moves that memo first; one that names a topic takes its claims out of the memos', () => {
      const first = outlineArchitect.offline({ ...input, feedback: 'Start with the water regulator' }).sections;
      expect(first.map((s) => s.title)).toEqual(['Per Holm, water regulator', question, 'Ada Lind, hydrologist']);
      expect(first[0]!.claimIds).toEqual(['C2', 'C4']);
      const topic = outlineArchitect.offline({ ...input, feedback: 'Add a section on abstraction permits' }).sections;
      expect(topic[0]).toEqual({
        title: 'Abstraction Permits',
        purpose: 'Requested by the reviewer: abstraction permits.',
        claimIds: ['C2', 'C4'],
      });
      // The memo stays a section (its interview is in the report), without the claims the request took.
      expect(topic.find((s) => s.title === 'Per Holm, water regulator')!.claimIds).toEqual([]);
      expect(topic.flatMap((s) => s.claimIds).sort()).toEqual(['C1', 'C2', 'C3', 'C4']);
    });

    it('interviews mode (memos only, no plan questions): the memos are the outline', () => {
      const only = outlineArchitect.offline({
        question,
        questions: [],
        claims: claims.filter((c) => c.id !== 'C1'),
        memos,
        feedback: null,
      });
      expect(only.sections).toEqual(memos);
    });

    it('a model answer that drops a memo: named for the repair request, and the memo is put back with its unused claims', () => {
      const checked = outlineArchitect.check!(input, { sections: [{ title: 'Permits', purpose: '', claimIds: ['C2', 'C1'] }] });
      expect(checked.issues).toEqual([
        'the interview memo "Ada Lind, hydrologist" is not a section (keep every memo\'s title)',
        'the interview memo "Per Holm, water regulator" is not a section (keep every memo\'s title)',
      ]);
      expect(checked.cleaned!.sections.map((s) => [s.title, s.claimIds])).toEqual([
        ['Permits', ['C2', 'C1']],
        ['Ada Lind, hydrologist', ['C3']],
        ['Per Holm, water regulator', ['C4']],
      ]);
    });
  });
});

describe('the clause a claim answers best, on each clause’s own scale (decision 0168)', () => {
  const question =
    'When I backport a fix with git cherry-pick, how do I record which commit it came from, and can I cherry-pick a merge commit?';
  const record = 'When I backport a fix with git cherry-pick, how do I record which commit it came from?';
  const merge = 'Can I cherry-pick a merge commit?';
  const questions = [
    { id: 'Q1', text: record },
    { id: 'Q2', text: merge },
  ];
  // One manual page: most of its sentences are about cherry-picking a merge, which covers the short clause whole.
  const page = (id: string, statement: string) => ({ id, statement, questionId: null, sourceIds: ['git-cherry-pick.txt'] });
  const claims = [
    page('M1', 'Usually you cannot cherry-pick a merge commit because you do not know which side of the merge is the mainline.'),
    page('M2', 'The mainline option lets cherry-pick replay a merge commit relative to the specified parent.'),
    page('M3', 'Cherry-picking a merge commit needs the parent number of the mainline.'),
    page('M4', 'A merge commit can be cherry-picked with the mainline option.'),
    page('X1', 'When recording the commit, append a line that says which commit this change was cherry-picked from.'),
  ];

  it('puts the sentence saying how to record the commit under the clause asking it, not under the clause its page covers best', () => {
    const { sections } = outlineArchitect.offline({ question, questions, claims, feedback: null });
    const under = (title: string) => sections.find((s) => s.title === title)?.claimIds ?? [];
    expect(under(record)).toContain('X1');
    expect(under(merge)).toEqual(expect.arrayContaining(['M1', 'M2', 'M3', 'M4']));
    expect(under(merge)).not.toContain('X1');
  });
});

describe('a claim whose section is full (decision 0168)', () => {
  it('goes to the next section it answers that has room, not out of the report', () => {
    const count = 'How many boats were counted on the lake?';
    const harbour = 'Why were the boats moored in the harbour?';
    const question = 'How many boats were counted on the lake, and why were the boats moored in the harbour?';
    const counts = Array.from({ length: MAX_CLAIMS_PER_SECTION + 4 }, (_, i) => ({
      id: `A${i}`,
      statement: `Observers counted ${10 + i} boats on the lake.`,
      questionId: null,
    }));
    const claims = [
      ...counts,
      { id: 'B1', statement: 'The boats were moored in the harbour because a storm was forecast.', questionId: null },
    ];
    const { sections } = outlineArchitect.offline({
      question,
      questions: [
        { id: 'Q1', text: count },
        { id: 'Q2', text: harbour },
      ],
      claims,
      feedback: null,
    });
    const under = (title: string) => sections.find((s) => s.title === title)?.claimIds ?? [];
    expect(under(count)).toHaveLength(MAX_CLAIMS_PER_SECTION);
    expect(under(harbour)).toContain('B1');
    // Every count is in the report: the four the first section had no room for stand under the second.
    expect(sections.flatMap((s) => s.claimIds).filter((id) => id.startsWith('A'))).toHaveLength(counts.length);
  });
});

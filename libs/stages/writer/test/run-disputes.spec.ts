import { explainsDifference } from '@dossier/agents';
import type { ClaimRow } from '@dossier/db';
import {
  claimTerms,
  contestedClaimIds,
  disputesAboutQuestion,
  reservedReasons,
  runDisputes,
  selectDisagreements,
} from '../src/frame/disagreements';

const thirtyOr = (days: string) => `git reflog expire removes entries older than this time; defaults to ${days} days.`;

/*
 * The run's disputes (decisions 0087, 0098): recorded contradictions and pairs found when writing, only between
 * sources. A pair whose sides all come from one document is no disagreement between sources, recorded or not.
 */
describe('runDisputes', () => {
  const claim = (id: string, statement: string, sourceIds: string[]) => ({ id, statement, sourceIds });
  const eighteen = 'Lake Varen has lost 18% of its surface area.';
  const twentySeven = 'Lake Varen has lost 27% of its surface area.';

  it('keeps a pair from two sources, recorded or found when writing', () => {
    const claims = [claim('A', eighteen, ['S1']), claim('B', twentySeven, ['S2'])];
    expect(runDisputes([], claims)).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
    expect(runDisputes([{ claimAId: 'B', claimBId: 'A' }], claims)).toEqual([{ claimAId: 'B', claimBId: 'A' }]);
  });

  it('drops a pair whose sides come from one source only, recorded or found when writing', () => {
    const claims = [claim('A', eighteen, ['S1']), claim('B', twentySeven, ['S1'])];
    expect(runDisputes([], claims)).toEqual([]);
    expect(runDisputes([{ claimAId: 'A', claimBId: 'B' }], claims)).toEqual([]);
  });

  it('a side another source also states still opposes the other', () => {
    const claims = [claim('A', eighteen, ['S1', 'S2']), claim('B', twentySeven, ['S1'])];
    expect(runDisputes([], claims)).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
  });

  it('two claims describing different terms of a manual are no dispute, recorded or found; one term or none is no evidence (0154)', () => {
    const ninety = 'git reflog expire removes reflog entries older than this time; defaults to 90 days.';
    const thirty = 'git reflog expire removes reflog entries older than this time; defaults to 30 days.';
    const claims = [claim('A', ninety, ['S1']), claim('B', thirty, ['S2'])];
    const terms = (a: string | null, b: string | null) =>
      new Map([
        ['A', a],
        ['B', b],
      ]);
    expect(runDisputes([], claims, terms('gc.reflogExpire', 'gc.reflogExpireUnreachable'))).toEqual([]);
    expect(runDisputes([{ claimAId: 'A', claimBId: 'B' }], claims, terms('gc.reflogExpire', 'gc.reflogExpireUnreachable'))).toEqual([]);
    expect(runDisputes([], claims, terms('gc.reflogExpire', 'gc.reflogExpire'))).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
    expect(runDisputes([], claims, terms('gc.reflogExpire', null))).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
    expect(runDisputes([], claims)).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
  });

  it("claimTerms: the term all of a claim's passages stand under in their sources", () => {
    const page = [
      'CONFIGURATION',
      'gc.reflogExpire',
      thirtyOr('90'),
      'gc.reflogExpireUnreachable',
      thirtyOr('30'),
      'NOTES',
      'Plain prose here.',
    ].join('\n\n');
    const at = (id: string, text: string) => ({ id, snapshotId: 'P', start: page.indexOf(text), end: page.indexOf(text) + text.length });
    const evidence = [at('e90', thirtyOr('90')), at('e30', thirtyOr('30')), at('eProse', 'Plain prose here.')];
    const terms = claimTerms(
      [
        { id: 'A', evidenceIds: ['e90'] },
        { id: 'B', evidenceIds: ['e30'] },
        { id: 'C', evidenceIds: ['e90', 'e30'] },
        { id: 'D', evidenceIds: ['eProse'] },
      ],
      evidence,
      [{ id: 'P', text: page }],
    );
    expect([...terms]).toEqual([
      ['A', 'gc.reflogExpire'],
      ['B', 'gc.reflogExpireUnreachable'],
      ['C', null],
      ['D', null],
    ]);
  });

  it('a conditional negation and different API names are no dispute, from two sources too', () => {
    const claims = [
      claim('A', 'If Node.js was not started with the --test-only command-line option, this function is a no-op.', ['S1']),
      claim('B', 'Starts the Node.js command line test runner.', ['S2']),
      claim('C', 'The vm.runInContext() method compiles code and returns the result after 5 milliseconds.', ['S3']),
      claim('D', 'The vm.compileFunction() method compiles code and returns the result after 10 milliseconds.', ['S4']),
    ];
    expect(runDisputes([], claims)).toEqual([]);
  });
});

describe('reservedReasons (decision 0105)', () => {
  // The demo's surface-area dispute closed with "Neither the 27% nor the 18% figure says over which period or on which
  // basis it was measured." while its sources explain the difference: the reasons were body sentences, passed over.
  const claim = (id: string, statement: string, ev: string) =>
    ({ id, statement, evidenceIds: [ev], sourceIds: [ev], status: 'contested' }) as unknown as ClaimRow;
  const claims = [
    claim('A', 'Lake Varen has lost 27% of its surface area.', 'e1'),
    claim('B', 'Lake Varen has lost 18% of its surface area.', 'e2'),
  ];
  const reason =
    "The difference from the authority's figure (18%) comes almost entirely from the choice of reference level: mean versus minimum.";
  const range = 'The loss of surface area lies between 18% (annual mean) and 27% (autumn minimum); at the September level it is 24%.';
  const evidence = [
    { id: 'x1', excerpt: reason },
    { id: 'x2', excerpt: range },
  ];

  it('both sentences explain the difference: one names a figure and the basis, the other both figures and their bases', () => {
    const sides = claims.map((c) => c.statement);
    expect(explainsDifference(reason, sides)).toBe(true);
    expect(explainsDifference(range, sides)).toBe(true);
  });

  it('the reason is reserved for "Where the sources disagree", which shows it once the body leaves it out', () => {
    const reserved = reservedReasons([], claims, evidence);
    expect(reserved).toEqual([reason]);
    const [shown] = selectDisagreements(runDisputes([], claims), claims, evidence, ['The lake fell.']);
    expect(shown!.reason?.text).toBe(reason);
  });
});

describe("a dispute's reason is about what its sides disagree on (decision 0124)", () => {
  const claim = (id: string, statement: string, ev: string) =>
    ({ id, statement, evidenceIds: [ev], sourceIds: [ev], status: 'contested' }) as unknown as ClaimRow;
  // The demo corpus: the authority's licence note (examples/corpus/krwa-fishing-licence-statistics-2015-2023.txt) and the
  // Varen Lake Trust's fish survey (examples/corpus-src/varen-lake-trust-fish-survey-2024.txt).
  const licences = [
    claim('A', 'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.', 'e1'),
    claim('B', 'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.', 'e2'),
  ];
  const survey = {
    id: 'x1',
    excerpt: "The difference between our results and the authority's is explained by season and location.",
    voice: 'the fish survey',
  };

  it('refuses the fish survey\'s "season and location" for the licence counts: their reason is what one includes', () => {
    const [shown] = selectDisagreements(runDisputes([], licences), licences, [survey]);
    expect(shown!.reason).toBeNull();
    expect(shown!.difference).toBe('Only one of the two figures says it includes club permits.');
  });

  it('takes the next candidate that speaks of the licences, and keeps "season and location" for the fish population', () => {
    const counted = {
      id: 'x2',
      excerpt: 'The difference between the two licence counts is that the Trust includes club permits sold at the harbour kiosk.',
    };
    const [shown] = selectDisagreements(runDisputes([], licences), licences, [survey, counted]);
    expect(shown!.reason?.text).toBe(counted.excerpt);
    const fish = [
      claim('C', "The fish population of Lake Varen has recovered, according to the authority's spring test netting.", 'e3'),
      claim('D', "The Trust's summer 2024 survey concludes that the fish population has not recovered.", 'e4'),
    ];
    const [population] = selectDisagreements([{ claimAId: 'C', claimBId: 'D' }], fish, [survey]);
    expect(population!.reason?.text).toBe(
      "The difference between the fish survey's results and the authority's is explained by season and location.",
    );
  });

  it('shows no side that opens with a pronoun pointing at a sentence the reader does not see', () => {
    const rainfall = [
      claim('E', 'Rainfall in the Varen catchment was 7% below average between 2015 and 2024.', 'e5'),
      claim('F', 'It reports that rainfall in the Varen catchment was 12% below average between 2015 and 2024.', 'e6'),
      claim('G', 'Rainfall in the Varen catchment was 3% below average between 2015 and 2024.', 'e7'),
    ];
    const pairs = [
      { claimAId: 'E', claimBId: 'F' },
      { claimAId: 'E', claimBId: 'G' },
    ];
    const [shown] = selectDisagreements(pairs, rainfall, []);
    expect(shown!.sides.map((s) => s.id)).toEqual(['E', 'G']);
  });

  it('shows a side opening with "On this basis" as the statement after it (decision 0136)', () => {
    // examples/corpus/varenby-anglers-club-agm-minutes-2024.txt: the basis ("These include … club day and week permits")
    // is the sentence before, which the disagreement does not show.
    const minutes = [
      licences[0]!,
      claim('H', 'On this basis the number of fishing licences fell from 1,410 in 2015 to 480 in 2023.', 'e8'),
    ];
    const [shown] = selectDisagreements(runDisputes([], minutes), minutes, []);
    expect(shown!.sides.map((s) => s.statement)).toEqual([
      'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
      'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.',
    ]);
  });
});

/*
 * A report shows the disputes about its question (decision 0166): the lake-varen corpus answers every question with the
 * same documents, and each report listed the corpus's five disputes, the fishing licences' under "How far did the
 * water level fall?".
 */
describe('disputesAboutQuestion', () => {
  const dispute = (name: string, ...statements: string[]) => ({ name, sides: statements.map((statement) => ({ statement })) });
  const level = dispute(
    'level',
    'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
    'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
  );
  const licences = dispute(
    'licences',
    'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.',
    'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023, including club permits.',
  );
  const irrigation = dispute(
    'irrigation',
    'Annual irrigation withdrawals from Lake Varen average 38 million cubic metres.',
    'Annual irrigation withdrawals from Lake Varen average 52 million cubic metres.',
  );
  const causes = dispute(
    'causes',
    'Irrigation withdrawals caused the decline.',
    'Irrigation withdrawals did not cause the decline of Lake Varen.',
  );
  const all = [licences, level, irrigation, causes];
  const statements = [
    ...all.flatMap((d) => d.sides.map((s) => s.statement)),
    'The fish population of Lake Varen has not recovered.',
    'Lake Varen has lost 18% of its surface area.',
  ];
  const about = (question: string) => disputesAboutQuestion(question, all, statements).map((d) => d.name);

  it('keeps the disputes whose sides speak of what is asked, in their order', () => {
    expect(about('How far did the water level of Lake Varen fall between 2015 and 2024, and why do the figures differ?')).toEqual([
      'level',
    ]);
    expect(about('How did the number of fishing licences for Lake Varen change from 2015 to 2023?')).toEqual(['licences']);
    expect(about('How much do irrigation withdrawals from Lake Varen average each year?')).toEqual(['irrigation', 'causes']);
  });

  it("a dispute sharing only a word most of the run's claims use stays below the floor the best dispute sets", () => {
    const ferry = dispute(
      'ferry',
      'The ferry to Orsa Island stopped in 2023 because the water was too shallow.',
      'The ferry to Orsa Island stopped in 2022 because the water was too shallow.',
    );
    // "water" in nearly every claim weighs little; "level" in two weighs much.
    const watery = ['quality', 'temperature', 'rights', 'prices', 'meters', 'permits', 'samples', 'pumps', 'tables', 'tariffs'].map(
      (w) => `Water ${w} in Varenby changed.`,
    );
    const run = [...[level, ferry].flatMap((d) => d.sides.map((s) => s.statement)), ...watery];
    const asked = 'How far did the water level of Lake Varen fall between 2015 and 2024?';
    expect(disputesAboutQuestion(asked, [ferry, level], run).map((d) => d.name)).toEqual(['level']);
    // Alone, it is the best there is, and the question's word it shares keeps it.
    expect(disputesAboutQuestion(asked, [ferry], run).map((d) => d.name)).toEqual(['ferry']);
  });

  it("a name every side shares (the setting) makes no dispute the question's; with none about it, none is shown", () => {
    expect(about('Why and when was the ferry between Varenby and Lake Varen suspended?')).toEqual([]);
    expect(disputesAboutQuestion('What caused the decline of the water level?', [], statements)).toEqual([]);
  });
});

/* A start the sources date differently: a claim dating it takes a side, though it restates neither (decision 0166). */
describe('contestedClaimIds: the start of a disputed onset', () => {
  const row = (id: string, statement: string) =>
    ({ id, statement, evidenceIds: [`e-${id}`], sourceIds: [`s-${id}`] }) as unknown as ClaimRow;
  const claims = [
    row('A', 'The decline started before large-scale irrigation.'),
    row('B', 'The year-on-year decline began in the first full year of large-scale canal operation.'),
    row('C', 'The annual mean level fell by 4.2 m between 2015 and 2024; the decline began in 2015 and is mainly caused by climate.'),
    row('D', 'The KRWA restocking programme begins (autumn 2022).'),
    row('E', 'Rainfall was 12% below average between 2015 and 2024.'),
  ];

  it('holds both sides and the claim dating the same start; not a start of something else, nor a claim dating none', () => {
    expect([...contestedClaimIds([{ claimAId: 'A', claimBId: 'B' }], claims)].sort()).toEqual(['A', 'B', 'C']);
  });

  it('holds no other claim when the dispute is not about a start', () => {
    const figures = [
      row('F', 'The number of fishing licences fell from 1,240 in 2015 to 610 in 2023.'),
      row('G', 'The number of fishing licences fell from 1,410 in 2015 to 480 in 2023.'),
      ...claims.slice(2),
    ];
    expect([...contestedClaimIds([{ claimAId: 'F', claimBId: 'G' }], figures)].sort()).toEqual(['F', 'G']);
  });
});

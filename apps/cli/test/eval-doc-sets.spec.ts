import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalReport } from '@dossier/evals';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { cliRunner } from './cli-harness';

/*
 * The regression floors of the offline engine on the two sets over real documentation (docs/decisions/0022, 0038) and
 * the written product-recall set (0091): the first QUESTIONS questions of each, run by `dossier eval` as a user runs
 * it, corpus ingested from the set's archive or folder.
 * Each set takes minutes in full (`npm run eval` runs them whole). Floors are what the engine reached when they were
 * set, rounded down: raise them as the engine improves, never edit a set to pass (0021).
 */
const QUESTIONS = 3;
const FLOORS: Record<string, { keyPointRecall: number; sourceRecall: number }> = {
  // Measured 0.87 (q01 1.00, q02 0.60, q03 1.00) and 1.00 with the outline's 60 claims and the named page read deep
  // (0111; 0.73 before, q02 0.20); 0.65 when set (0039); 0.52 with 0038, 0.38 before it.
  // 0.93 (q02 0.80: "git bisect reset") with the named page's claims ranked first in the outline (0131).
  'git-manual': { keyPointRecall: 0.93, sourceRecall: 1 },
  // Measured 0.72 (q01 0.83, q02 0.33, q03 1.00) and 1.00 with reST stored as read and the question's names kept in its
  // queries (0100; 0.67 before, q02 0.17); 0.69 when set (0039); 0.25 with 0038, 0.06 before it.
  // 0.78 (q02 0.50) with 0111; the same with 0131. 0.72 (q02 0.33) with 0132 (0136): the point it lost was found by an
  // off-topic sentence ("However, they still use the strict error handler by default … binary file in text mode", about
  // open()), which the scorer's word match took for "text=True opens the streams in text mode"; set to what is measured.
  // 0.72 again with 0137 (q01 1.00: "its default value of 128:" is a lead-in over its literal block; q02 0.17: the
  // check_output sentence that matched "check + CalledProcessError" is no longer among the run's excerpts, not traced
  // further; the real one, "If check is true …", never was).
  // 0.89 (q02 0.67: "Wait for command to complete, then return a CompletedProcess instance." defines run()'s signature,
  // the second sentence of its first paragraph) with 0145.
  'python-stdlib': { keyPointRecall: 0.88, sourceRecall: 1 },
  // Measured 0.93 (q01 1.00, q02 1.00, q03 0.80) and 1.00 on its first measurement, before any rule was tuned on it (0092);
  // the same with 0111.
  // 0.87 (q03 0.60) and 0.93 (q03 0.80: the Assembly's written answer not found) on the nineteenth session's machine: the
  // code of a9db2a1, which met 0.90 and 1.00 in the CI of the machine before, measured this on this one four times (alone,
  // two at once, in jest); 0169 measured the same. Set to what is measured (0169, "The floors on this machine").
  'velora-recall': { keyPointRecall: 0.86, sourceRecall: 0.93 },
};

describe.each(Object.keys(FLOORS))('dossier eval %s (offline floor)', (set) => {
  let db: TestDatabase;
  const out = mkdtempSync(path.join(tmpdir(), `dossier-eval-${set}-`));
  let report: EvalReport;

  beforeAll(async () => {
    db = await createTestDatabase();
    const r = await cliRunner(db)(['eval', set, '--questions', String(QUESTIONS), '--out', out]);
    if (r.code !== 0) throw new Error(`dossier eval ${set} exited ${r.code}:\n${r.output.slice(-4000)}`);
    report = EvalReport.parse(JSON.parse(readFileSync(path.join(out, 'eval.json'), 'utf8')));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('stays above the floor, with no trap stated, every excerpt verbatim and nothing for the lint', () => {
    const { overall } = report;
    expect(report.questions).toHaveLength(QUESTIONS);
    expect(overall.failed).toBe(0);
    expect(overall.keyPointRecall).toBeGreaterThanOrEqual(FLOORS[set]!.keyPointRecall);
    expect(overall.sourceRecall).toBeGreaterThanOrEqual(FLOORS[set]!.sourceRecall);
    expect(overall.trapHits).toBe(0);
    expect(overall).toMatchObject({ llmCalls: 0, excerptVerbatimRate: 1 });
    // The report lint (0045) at 0 on these questions: python-stdlib's reST markup (18 and 31 defects on q01 and q02)
    // no longer reaches a report since its sources are stored as read (0100).
    expect(overall.lintDefects).toBe(0);
  });
});

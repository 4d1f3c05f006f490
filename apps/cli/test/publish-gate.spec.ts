import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner, openGate, type CliResult } from './cli-harness';
import { matrixCorpus, QUESTION } from './model-matrix';

interface Frame {
  introduction: { text: string }[];
  conclusion: { text: string; evidenceIds: string[] }[];
  verification: { redrafted: number[]; round: number | null; figures: { checked: number } };
}

/** The publish gate (issue 12): it shows the report in brief with its verification figures; a rejection re-frames. */
describe('the publish gate', () => {
  let db: TestDatabase;
  let result: CliResult;
  let runId: string;
  let before: Frame;
  let after: Frame;
  let titles: string[];
  const feedback = 'Section 1 should say more; the conclusion should lead with irrigation withdrawals.';
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-publish-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    const cli = cliRunner(db);
    expect((await cli(['ingest', matrixCorpus(), '--collection', 'publish'])).code).toBe(0);
    // `--approve prompt` without a terminal: every gate waits for `dossier approve` from another process.
    const running = cli([
      'research',
      QUESTION,
      '--collection',
      'publish',
      '--max-iterations',
      '1',
      '--perspectives',
      '2',
      '--approve',
      'prompt',
      '--out',
      out,
    ]);
    const gate = (name: string, revision: number) => openGate(db, name, revision);
    runId = await gate('plan', 0);
    expect((await cli(['approve', runId, 'plan'])).code).toBe(0);
    await gate('outline', 0);
    expect((await cli(['approve', runId, 'outline'])).code).toBe(0);
    await gate('publish', 0);
    const frames = async () =>
      sql<Frame & { revision: number }>(
        db.url,
        'SELECT revision, introduction, conclusion, verification FROM report_frames WHERE run_id = $1 ORDER BY revision',
        [runId],
      );
    before = (await frames())[0]!;
    const rejected = await cli(['approve', runId, 'publish', '--reject', '--feedback', feedback]);
    expect(rejected.code).toBe(0);
    await gate('publish', 1);
    after = (await frames())[1]!;
    titles = (
      await sql<{ title: string }>(
        db.url,
        'SELECT title FROM outline_sections WHERE run_id = $1 AND revision = (SELECT max(revision) FROM outline_sections WHERE run_id = $1) ORDER BY position',
        [runId],
      )
    ).map((r) => r.title);
    expect((await cli(['approve', runId, 'publish'])).code).toBe(0);
    result = await running;
  }, 600_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('shows the report in brief and its verification figures before asking', () => {
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/Report summary:\n {2}This report addresses the question/);
    expect(result.output).toContain(`  1. ${titles[0]} (`);
    expect(result.output).toMatch(/Verification: checks made: \d+; \d+ failed the guard, \d+ the verifier; \d+ repaired, \d+ removed\./);
  });

  it('a rejection with feedback re-frames the report with it, redrafts the section it names, and verifies again', () => {
    expect(after.introduction.map((s) => s.text)).not.toEqual(before.introduction.map((s) => s.text));
    expect(after.introduction.at(-1)!.text).toContain(feedback.replace(/"/g, "'"));
    expect(after.verification.redrafted).toEqual([0]);
    expect(after.verification.round).toBeGreaterThan(0);
    expect(after.verification.figures.checked).toBeGreaterThan(before.verification.figures.checked);
    // The conclusion's findings lead with what the reviewer asked about, when the report has it (what stays open, uncited,
    // still closes it: decision 0037).
    const irrigation = after.conclusion.filter((s) => s.evidenceIds.length > 0).findIndex((s) => /irrigation/i.test(s.text));
    if (irrigation >= 0) expect(irrigation).toBe(0);
  });

  it('the published report is the revised one', () => {
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const intro = report.sections.find((s) => s.id === 'introduction')!;
    expect(intro.paragraphs[0]!.sentences.map((s) => s.text)).toEqual(after.introduction.map((s) => s.text));
  });
});

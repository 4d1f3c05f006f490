import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner, EXAMPLES, openGate } from './cli-harness';
import { contestedInBody } from './framing-checks';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";

interface Section {
  position: number;
  title: string;
  claim_ids: string[];
}

/**
 * The outline gate's feedback applies to interview sections as to survey sections (decision 0037): a request that names
 * an analyst moves that analyst's memo first; a request for a topic gets a section holding the claims that state it,
 * taken from the memos too, and every memo stays a section. Through the real gate: `--approve prompt` without a
 * terminal waits for `dossier approve` from another process.
 */
describe.each([
  { mode: 'interviews', feedback: 'Add a section on the water balance', extra: [] as string[] },
  { mode: 'hybrid', feedback: 'Start with the regulator', extra: ['--max-iterations', '1'] },
])('the outline gate of a $mode run', ({ mode, feedback, extra }) => {
  let db: TestDatabase;
  let runId: string;
  let before: Section[];
  let after: Section[];
  let report: ReportJson;
  let code: number | null;
  const out = mkdtempSync(path.join(tmpdir(), `dossier-gate-${mode}-`));

  beforeAll(async () => {
    db = await createTestDatabase();
    const cli = cliRunner(db);
    const running = cli([
      'research',
      QUESTION,
      '--corpus',
      path.join(EXAMPLES, 'corpus'),
      '--collection',
      'examples',
      '--mode',
      mode,
      '--perspectives',
      '4',
      '--interview-turns',
      '2',
      ...extra,
      '--approve',
      'prompt',
      '--out',
      out,
    ]);
    const gate = (name: string, revision: number) => openGate(db, name, revision);
    const outline = (revision: number) =>
      sql<Section>(
        db.url,
        'SELECT position, title, claim_ids FROM outline_sections WHERE run_id = $1 AND revision = $2 ORDER BY position',
        [runId, revision],
      );
    runId = await gate('plan', 0);
    expect((await cli(['approve', runId, 'plan'])).code).toBe(0);
    await gate('outline', 0);
    before = await outline(0);
    expect((await cli(['approve', runId, 'outline', '--reject', '--feedback', feedback])).code).toBe(0);
    await gate('outline', 1);
    after = await outline(1);
    expect((await cli(['approve', runId, 'outline'])).code).toBe(0);
    await gate('publish', 0);
    expect((await cli(['approve', runId, 'publish'])).code).toBe(0);
    code = (await running).code;
    report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
  }, 600_000);
  afterAll(async () => {
    await db?.drop();
  });

  const memos = async () =>
    (await sql<{ name: string; role: string }>(db.url, 'SELECT name, role FROM perspectives WHERE run_id = $1', [runId])).map(
      (p) => `${p.name}, ${p.role}`,
    );

  it('the revised outline applies the feedback to the interview sections; every memo is still a section', async () => {
    expect(code).toBe(0);
    const titles = await memos();
    expect(titles.length).toBeGreaterThanOrEqual(4);
    for (const t of titles) expect(after.map((s) => s.title)).toContain(t);
    if (mode === 'hybrid') {
      // The regulator's memo was not first before; it is now, with the same claims.
      const regulator = titles.find((t) => /regulator/i.test(t))!;
      expect(before[0]!.title).not.toBe(regulator);
      expect(after[0]!.title).toBe(regulator);
      expect(after[0]!.claim_ids).toEqual(before.find((s) => s.title === regulator)!.claim_ids);
      expect(after.map((s) => s.title).sort()).toEqual(before.map((s) => s.title).sort());
    } else {
      // A section of its own, first, holding claims that were in interview memos before.
      expect(after[0]!.title).toBe('Water Balance');
      const inMemos = new Set(before.filter((s) => titles.includes(s.title)).flatMap((s) => s.claim_ids));
      expect(after[0]!.claim_ids.some((id) => inMemos.has(id))).toBe(true);
      const claims = await sql<{ id: string; statement: string }>(db.url, 'SELECT id, statement FROM claims WHERE id = ANY($1::uuid[])', [
        after[0]!.claim_ids,
      ]);
      for (const c of claims) expect(c.statement.toLowerCase()).toContain('water balance');
      // No claim is in two sections.
      const all = after.flatMap((s) => s.claim_ids);
      expect(new Set(all).size).toBe(all.length);
    }
  });

  it('the report is drafted from the revised outline, and no contested position is stated in its body', () => {
    const body = report.sections.filter((s) => s.kind === 'body').map((s) => s.title);
    // The body follows the revised outline's order. A section whose every sentence the prose gate removed (decision
    // 0046) is not in the report, so the order is compared over the sections that were written.
    const written = after.map((s) => s.title).filter((t) => body.includes(t));
    expect(written.length).toBeGreaterThan(1);
    expect(body.filter((t) => written.includes(t))).toEqual(written);
    expect(contestedInBody(report)).toEqual([]);
  });
});

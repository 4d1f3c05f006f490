import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner, EXAMPLES, type CliResult } from './cli-harness';
import { contestedInBody, expectAnswerFramed, states } from './framing-checks';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";

/** Issue 14: `--mode interviews`, offline, over the example corpus: 4 analysts × 3 turns. */
describe('dossier research --mode interviews (offline, end to end)', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let result: CliResult;
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-interviews-'));
  const report = () => ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
    result = await cli([
      'research',
      QUESTION,
      '--corpus',
      path.join(EXAMPLES, 'corpus'),
      '--collection',
      'examples',
      '--out',
      out,
      '--mode',
      'interviews',
      '--perspectives',
      '4',
      '--interview-turns',
      '3',
    ]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('completes on workflow version 2 without a question graph or a survey loop', async () => {
    expect(result.output).toMatch(/Report written to/);
    expect(result.code).toBe(0);
    const [run] = await sql<{ workflow_version: number; status: string }>(db.url, 'SELECT workflow_version, status FROM research_runs');
    expect(run).toEqual({ workflow_version: 2, status: 'completed' });
    const nodes = await sql<{ node: string }>(db.url, "SELECT DISTINCT node FROM node_executions WHERE status = 'completed'");
    const ran = nodes.map((n) => n.node);
    expect(ran).toEqual(expect.arrayContaining(['interview', 'claims', 'outline', 'draft', 'verify', 'frame', 'render']));
    expect(ran).not.toContain('search_plan');
    expect(ran).not.toContain('moderate');
  });

  it('runs 4 interviews, each with its own turns (at most 3), each turn a step of its own shard', async () => {
    const turns = await sql<{ shard: number; turn: number; perspective_id: string; question: string; closed: boolean }>(
      db.url,
      'SELECT shard, turn, perspective_id, question, closed FROM interview_turns ORDER BY shard, turn',
    );
    const shards = [...new Set(turns.map((t) => t.shard))];
    expect(shards).toEqual([0, 1, 2, 3]);
    for (const shard of shards) {
      const own = turns.filter((t) => t.shard === shard);
      expect(own.map((t) => t.turn)).toEqual(own.map((_, i) => i));
      expect(own.length).toBeLessThanOrEqual(3);
      // One analyst per interview; a turn closes it or the limit does.
      expect(new Set(own.map((t) => t.perspective_id)).size).toBe(1);
      expect(own.at(-1)!.closed || own.length === 3).toBe(true);
    }
    expect(new Set(turns.map((t) => t.perspective_id)).size).toBe(4);
    // No shared conversation: no interview asks another's question.
    const asked = new Map(turns.map((t) => [t.question, t.shard]));
    for (const t of turns) expect(asked.get(t.question)).toBe(t.shard);
    const steps = await sql<{ shard: number; iteration: number }>(
      db.url,
      "SELECT shard, iteration FROM node_executions WHERE node = 'interview' AND status = 'completed' ORDER BY shard, iteration",
    );
    expect(steps).toEqual(turns.map((t) => ({ shard: t.shard, iteration: t.turn })));
  });

  it('issues a query every turn, and the report counts them (issue 28: "0 queries, 0 sources read")', async () => {
    const results = await sql<{ result: { queries: number; sources: number } }>(
      db.url,
      "SELECT result FROM node_executions WHERE node = 'interview' AND status = 'completed'",
    );
    expect(results.length).toBeGreaterThan(0);
    for (const { result } of results) expect(result.queries).toBeGreaterThanOrEqual(1);
    const metrics = report().metrics;
    expect(metrics.searches).toBeGreaterThanOrEqual(results.length);
    expect(metrics.sourcesFetched).toBeGreaterThan(0);
  });

  it('the report has one section per analyst, an introduction and a conclusion; every sentence cited', async () => {
    const r = report();
    const analysts = await sql<{ name: string }>(db.url, 'SELECT name FROM perspectives');
    const body = r.sections.filter((s) => s.kind === 'body');
    expect(body).toHaveLength(4);
    for (const a of analysts) expect(body.some((s) => s.title.startsWith(a.name))).toBe(true);
    expect(r.sections[0]).toMatchObject({ id: 'introduction', kind: 'framing' });
    expect(r.sections.some((s) => s.id === 'conclusion')).toBe(true);
    const sentences = body.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    for (const sentence of sentences) expect(sentence.evidenceIds.length).toBeGreaterThan(0);
    // Verified as in the rest of the report: every body sentence was checked by the verifier.
    expect(r.metrics.verification!.checked).toBeGreaterThanOrEqual(sentences.length);
  });

  it('report.json carries the interviews (analyst, each question, cited answer sentences); report.html shows them', async () => {
    const r = report();
    const turns = await sql<{ shard: number; question: string }>(
      db.url,
      'SELECT shard, question FROM interview_turns ORDER BY shard, turn',
    );
    expect(r.interviews).toHaveLength(4);
    expect(r.interviews!.flatMap((i) => i.turns.map((t) => t.question))).toEqual(turns.map((t) => t.question));
    for (const interview of r.interviews!) {
      expect(interview.sectionId).toMatch(/^section-/);
      expect(r.sections.find((s) => s.id === interview.sectionId)!.title.startsWith(interview.analyst.name)).toBe(true);
      for (const turn of interview.turns) for (const s of turn.answer) for (const id of s.evidenceIds) expect(r.evidence[id]).toBeDefined();
    }
    expect(r.interviews!.some((i) => i.turns.some((t) => t.answer.length > 0))).toBe(true);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Interviews</h2>');
    for (const interview of r.interviews!)
      expect(html).toContain(`Q1. ${interview.turns[0]!.question.replaceAll("'", '&#39;').replaceAll('"', '&quot;')}`);
  });
  it('the interviews cite both sides of a contradiction; neither side is stated outside "Where the sources disagree"', () => {
    const r = report();
    const cited = new Set(r.interviews!.flatMap((i) => i.turns.flatMap((t) => t.answer.flatMap((s) => s.evidenceIds))));
    const bothCited = r.contradictions.filter((c) => c.claimIds.every((id) => r.claims[id]!.evidenceIds.some((e) => cited.has(e))));
    expect(bothCited.length).toBeGreaterThan(0);
    expect(contestedInBody(r)).toEqual([]);
    const shown = r.sections.find((s) => s.kind === 'contradictions')!.paragraphs.map((p) => p.sentences.map((s) => s.text));
    expect(bothCited.some((c) => shown.some((p) => c.claimIds.every((id) => p.some((t) => states(t, r.claims[id]!.text)))))).toBe(true);
  });

  it('the introduction states the main findings, each cited and verified; the conclusion names what stays open', async () => {
    await expectAnswerFramed(report(), db.url);
  });
});

describe('dossier research --mode hybrid (offline): the survey loop, then interviews on what it left open', () => {
  let db: TestDatabase;
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-hybrid-'));

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('runs both phases; the report has survey sections by theme and one section per interview', async () => {
    const result = await cliRunner(db)([
      'research',
      QUESTION,
      '--corpus',
      path.join(EXAMPLES, 'corpus'),
      '--collection',
      'examples',
      '--out',
      out,
      '--mode',
      'hybrid',
      '--perspectives',
      '2',
      '--interview-turns',
      '2',
      '--max-iterations',
      '2',
    ]);
    expect(result.output).toMatch(/Report written to/);
    const nodes = (await sql<{ node: string }>(db.url, "SELECT DISTINCT node FROM node_executions WHERE status = 'completed'")).map(
      (n) => n.node,
    );
    expect(nodes).toEqual(expect.arrayContaining(['search_plan', 'moderate', 'interview']));
    const r = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const interviewSections = new Set(r.interviews!.map((i) => i.sectionId));
    const body = r.sections.filter((s) => s.kind === 'body');
    expect(r.interviews).toHaveLength(2);
    expect(body.filter((s) => interviewSections.has(s.id)).length).toBeGreaterThanOrEqual(1);
    expect(body.filter((s) => !interviewSections.has(s.id)).length).toBeGreaterThanOrEqual(1);
    // The interviews' evidence went through claims as the pass after the survey's last.
    const [pass] = await sql<{ claims: number; moderate: number }>(
      db.url,
      "SELECT (SELECT max(iteration) FROM node_executions WHERE node = 'claims') AS claims, (SELECT max(iteration) FROM node_executions WHERE node = 'moderate') AS moderate",
    );
    expect(pass!.claims).toBe(pass!.moderate + 1);
    expect(contestedInBody(r)).toEqual([]);
    await expectAnswerFramed(r, db.url);
  });
});

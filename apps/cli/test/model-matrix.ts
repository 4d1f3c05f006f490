import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { readerSentence, ROLES } from '@dossier/agents';
import { offlineRoleAnswer, FakeOpenAIServer, sql, type DefectRates, type TestDatabase } from '@dossier/testing';
import { EXAMPLES, type cliRunner } from './cli-harness';

/*
 * The realistic-model matrix (issue 12): research runs through the real CLI against a local OpenAI-compatible server
 * whose answers are schema-shaped but imperfect, one row per defect kind at a high rate. Each row's run must complete
 * with a report in which no sentence the server corrupted survives, and every cited excerpt equals its snapshot slice.
 * The figures (verifier precision and recall against the server's record, repairs, removals, extra calls) are measured
 * on the way.
 */

export const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const DOCS = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'kessmark-climate-office-bulletin-2024.md',
  'timeline-lake-varen-2014-2025.md',
  'brennmoor-hydro-statement-release-schedule.md',
  'tessel-growers-position-statement.md',
];

export interface MatrixRow {
  name: string;
  rates: DefectRates;
}

/** One row per defect kind at a high rate (≥ 30% of answers or sentences), and one with every defect at once. */
export const MATRIX: readonly MatrixRow[] = [
  { name: 'paraphrase', rates: { paraphrase: 0.6 } },
  { name: 'unsupported', rates: { unsupported: 0.4 } },
  { name: 'wrong_ids', rates: { wrong_ids: 0.4 } },
  { name: 'wrong_kind_ids', rates: { wrong_kind_ids: 0.4 } },
  { name: 'over_length', rates: { over_length: 0.5 } },
  { name: 'wrapped', rates: { wrapped: 0.5 } },
  { name: 'sloppy_json', rates: { sloppy_json: 0.5 } },
  { name: 'truncated', rates: { truncated: 0.35 } },
  { name: 'empty_lists', rates: { empty_lists: 0.35 } },
  { name: 'refusal', rates: { refusal: 0.3 } },
  {
    name: 'everything',
    rates: {
      paraphrase: 0.3,
      unsupported: 0.3,
      wrong_ids: 0.3,
      wrong_kind_ids: 0.3,
      over_length: 0.3,
      wrapped: 0.3,
      sloppy_json: 0.3,
      truncated: 0.3,
      empty_lists: 0.3,
      refusal: 0.3,
    },
  },
];

/** A correct model: each role's offline answer to the input the engine echoed. */
export const offlineAnswer = offlineRoleAnswer(ROLES);

export function matrixCorpus(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-matrix-corpus-'));
  for (const f of DOCS) copyFileSync(path.join(EXAMPLES, 'corpus', f), path.join(dir, f));
  return dir;
}

export function llmEnv(server: FakeOpenAIServer): Record<string, string> {
  return {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_MODEL: 'fake-model',
    OPENAI_MODEL_VERIFIER: 'fake-judge',
    OPENAI_EMBEDDINGS_MODEL: 'fake-embedder',
    OPENAI_EMBEDDINGS_DIMENSIONS: '64',
    OPENAI_RETRY_BASE_MS: '100',
    OPENAI_RATE_PER_SECOND: '100',
    OPENAI_MAX_OUTPUT_TOKENS: '32768',
    DOSSIER_LLM_TEST_ECHO: '1',
  };
}

const normal = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();

export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface RowOutcome {
  row: string;
  exit: number | null;
  output: string;
  runId: string | null;
  report: ReportJson | null;
  corruptions: number;
  /** Report sentences equal to a corrupted sentence and not verbatim in their cited excerpts: must be none. */
  survivors: string[];
  /** Cited excerpts that differ from their snapshot's slice: must be none. */
  badExcerpts: string[];
  guard: Confusion;
  judge: Confusion;
  both: Confusion;
  repaired: number;
  removed: number;
  calls: number;
  /** Repair requests of role calls (the second try after an unusable answer). */
  repairRequests: number;
  /** Every extra call spent on repairs: repair requests, repairer calls, verifier calls of repair rounds. */
  repairCalls: number;
  /** A corrupted sentence that failed, was rewritten by the repairer, and whose rewrite passed. */
  realRepairs: number;
}

interface CheckRow {
  text: string;
  evidenceIds: string[];
  guard: unknown[];
  judge: string | null;
}

/** Runs one row: a fresh server, a research run through the CLI, and everything measured against the server's record. */
export async function runRow(db: TestDatabase, cli: ReturnType<typeof cliRunner>, row: MatrixRow, collection: string): Promise<RowOutcome> {
  const server = await new FakeOpenAIServer({ answer: offlineAnswer, realistic: { seed: row.name, rates: row.rates } }).start();
  const out = mkdtempSync(path.join(tmpdir(), `dossier-matrix-${row.name}-`));
  try {
    const r = await cli(
      [
        'research',
        QUESTION,
        '--collection',
        collection,
        '--engine',
        'openai',
        '--max-iterations',
        '2',
        '--perspectives',
        '2',
        '--out',
        out,
      ],
      llmEnv(server),
    );
    const runId = /Run ([0-9a-f-]{36})/.exec(r.output)?.[1] ?? null;
    // The run's own progress lines, kept for whoever reads a failure.
    writeFileSync(path.join(out, 'cli-output.txt'), r.output);
    const outcome: RowOutcome = {
      row: row.name,
      exit: r.code,
      output: r.output,
      runId,
      report: null,
      corruptions: server.corruptions.length,
      survivors: [],
      badExcerpts: [],
      guard: { tp: 0, fp: 0, fn: 0, tn: 0 },
      judge: { tp: 0, fp: 0, fn: 0, tn: 0 },
      both: { tp: 0, fp: 0, fn: 0, tn: 0 },
      repaired: 0,
      removed: 0,
      calls: 0,
      repairRequests: 0,
      repairCalls: 0,
      realRepairs: 0,
    };
    if (r.code !== 0 || !runId) {
      outcome.output = `${r.output.slice(-6000)}\n(full output: ${path.join(out, 'cli-output.txt')})`;
      return outcome;
    }
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    outcome.report = report;
    const corrupted = new Set(server.corruptions.map((c) => normal(c.text)));

    // No corrupted sentence survives unless its citations state it word for word (a passage quoted from its own source),
    // as it is quoted or in its reader's form: a timeline's entry "14 February 2025 — The KRWA's … report states …" is
    // the sentence "The KRWA's … report states … (14 February 2025).", the source's words in their order (0138, 0168).
    const states = (excerpt: string, text: string) =>
      [excerpt, readerSentence(excerpt) ?? excerpt].some((form) => normal(form).includes(normal(text)));
    for (const section of report.sections.filter((s) => s.kind !== 'method')) {
      for (const s of section.paragraphs.flatMap((p) => p.sentences)) {
        if (!corrupted.has(normal(s.text))) continue;
        const verbatim = s.evidenceIds.some((id) => states(report.evidence[id]?.excerpt ?? '', s.text));
        if (!verbatim) outcome.survivors.push(`${section.title}: ${s.text}`);
      }
    }
    // Every cited excerpt is its snapshot's text between its offsets.
    const snapshots = await sql<{ content_hash: string; text: string }>(db.url, 'SELECT content_hash, text FROM source_snapshots', []);
    const byHash = new Map(snapshots.map((s) => [s.content_hash, s.text]));
    for (const [id, e] of Object.entries(report.evidence)) {
      const text = byHash.get(report.sources[e.sourceId]!.contentHash);
      if (text === undefined || text.slice(e.start, e.end) !== e.excerpt) outcome.badExcerpts.push(id);
    }

    // Verifier precision and recall against the server's record, on every check of a sentence (body and frame).
    const checks = await checksOf(db, runId);
    const excerpts = new Map(
      (await sql<{ id: string; excerpt: string }>(db.url, 'SELECT id, excerpt FROM evidence_fragments WHERE run_id = $1', [runId])).map(
        (e) => [e.id, e.excerpt],
      ),
    );
    for (const c of checks) {
      const truth = corrupted.has(normal(c.text)) && !c.evidenceIds.some((id) => normal(excerpts.get(id) ?? '').includes(normal(c.text)));
      const byGuard = c.guard.length > 0;
      const byJudge = c.judge !== null && c.judge !== 'supported';
      tally(outcome.guard, truth, byGuard);
      tally(outcome.judge, truth, byJudge);
      tally(outcome.both, truth, byGuard || byJudge);
    }
    outcome.repaired = report.metrics.verification?.repaired ?? 0;
    outcome.removed = report.metrics.verification?.removed ?? 0;
    // Extra calls spent on repairs: repair requests of role calls, repairer calls, and verifier calls of repair rounds.
    const [calls] = await sql<{ all: string; requests: string; repairer: string; reverify: string }>(
      db.url,
      `SELECT count(*) AS all,
              count(*) FILTER (WHERE (notes->>'repairRequest')::boolean) AS requests,
              count(*) FILTER (WHERE role = 'repairer') AS repairer,
              count(*) FILTER (WHERE role = 'verifier' AND step_key ~ '\\.verify\\.[1-9]') AS reverify
         FROM llm_calls WHERE run_id = $1 AND engine = 'openai'`,
      [runId],
    );
    outcome.calls = Number(calls!.all);
    outcome.repairRequests = Number(calls!.requests);
    outcome.repairCalls = Number(calls!.requests) + Number(calls!.repairer) + Number(calls!.reverify);
    outcome.realRepairs = await realRepairs(db, runId, corrupted);
    return outcome;
  } finally {
    await server.stop();
  }
}

function tally(c: Confusion, truth: boolean, flagged: boolean): void {
  if (truth && flagged) c.tp++;
  else if (truth) c.fn++;
  else if (flagged) c.fp++;
  else c.tn++;
}

/** Every sentence check of the run: the body's findings (not carried over) and the frame's records. */
async function checksOf(db: TestDatabase, runId: string): Promise<CheckRow[]> {
  const findings = await sql<{
    checks: Record<string, unknown> | null;
    section_id: string;
    round: number;
    paragraph: number;
    sentence: number;
  }>(db.url, 'SELECT checks, section_id, round, paragraph, sentence FROM verification_findings WHERE run_id = $1', [runId]);
  const drafts = await sql<{ section_id: string; round: number; paragraphs: { sentences: { evidenceIds: string[] }[] }[] }>(
    db.url,
    'SELECT section_id, round, paragraphs FROM section_drafts WHERE run_id = $1',
    [runId],
  );
  const draftOf = (sectionId: string, round: number) =>
    drafts.filter((d) => d.section_id === sectionId && d.round <= round).sort((a, b) => b.round - a.round)[0];
  const out: CheckRow[] = [];
  for (const f of findings) {
    const c = f.checks as { text?: string; guard?: unknown[]; judge?: string | null; carried?: boolean } | null;
    if (!c?.text || c.carried) continue;
    const evidenceIds = draftOf(f.section_id, f.round)?.paragraphs[f.paragraph]?.sentences[f.sentence]?.evidenceIds ?? [];
    out.push({ text: c.text, evidenceIds, guard: c.guard ?? [], judge: c.judge ?? null });
  }
  const frames = await sql<{ verification: { checks?: (CheckRow & { evidenceIds?: string[] })[] } | null }>(
    db.url,
    'SELECT verification FROM report_frames WHERE run_id = $1',
    [runId],
  );
  for (const f of frames) for (const c of f.verification?.checks ?? []) out.push({ ...c, evidenceIds: c.evidenceIds ?? [] });
  return out;
}

/** Corrupted body sentences that failed in round k and whose repaired rewrite passed in round k+1. */
async function realRepairs(db: TestDatabase, runId: string, corrupted: ReadonlySet<string>): Promise<number> {
  const rows = await sql<{
    section_id: string;
    round: number;
    verdict: string;
    checks: { text?: string } | null;
    paragraph: number;
    sentence: number;
  }>(db.url, 'SELECT section_id, round, verdict, checks, paragraph, sentence FROM verification_findings WHERE run_id = $1', [runId]);
  const drafts = await sql<{ section_id: string; round: number; paragraphs: { sentences: { text: string; repaired?: boolean }[] }[] }>(
    db.url,
    'SELECT section_id, round, paragraphs FROM section_drafts WHERE run_id = $1',
    [runId],
  );
  let n = 0;
  for (const d of drafts.filter((x) => x.round > 0)) {
    const failedBefore = rows.filter(
      (f) =>
        f.section_id === d.section_id &&
        f.round === d.round - 1 &&
        f.verdict !== 'supported' &&
        corrupted.has(normal(f.checks?.text ?? '')),
    );
    if (failedBefore.length === 0) continue;
    d.paragraphs.forEach((p, pi) =>
      p.sentences.forEach((s, si) => {
        if (!s.repaired) return;
        const passed = rows.some(
          (f) =>
            f.section_id === d.section_id && f.round === d.round && f.paragraph === pi && f.sentence === si && f.verdict === 'supported',
        );
        if (passed) n++;
      }),
    );
  }
  return n;
}

export function precision(c: Confusion): number {
  return c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
}

export function recall(c: Confusion): number {
  return c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn);
}

/** The matrix's figures as a table, also written to tmp/model-matrix.json for the record. */
export function summarise(outcomes: readonly RowOutcome[], file?: string): string {
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  const sum = (f: (o: RowOutcome) => Confusion): Confusion =>
    outcomes.reduce((a, o) => ({ tp: a.tp + f(o).tp, fp: a.fp + f(o).fp, fn: a.fn + f(o).fn, tn: a.tn + f(o).tn }), {
      tp: 0,
      fp: 0,
      fn: 0,
      tn: 0,
    });
  const lines = outcomes.map(
    (o) =>
      `${o.row.padEnd(15)} exit ${o.exit} corrupted ${o.corruptions} survivors ${o.survivors.length} repaired ${o.repaired} removed ${o.removed} calls ${o.calls} repair-calls ${o.repairCalls}`,
  );
  const [g, j, b] = [sum((o) => o.guard), sum((o) => o.judge), sum((o) => o.both)];
  const calls = outcomes.reduce((a, o) => a + o.calls, 0);
  const repairCalls = outcomes.reduce((a, o) => a + o.repairCalls, 0);
  const repairRequests = outcomes.reduce((a, o) => a + o.repairRequests, 0);
  lines.push(
    `runs completed ${outcomes.filter((o) => o.exit === 0 && o.report).length}/${outcomes.length}`,
    `guard  precision ${pct(precision(g))} recall ${pct(recall(g))} (${JSON.stringify(g)})`,
    `judge  precision ${pct(precision(j))} recall ${pct(recall(j))} (${JSON.stringify(j)})`,
    `both   precision ${pct(precision(b))} recall ${pct(recall(b))} (${JSON.stringify(b)})`,
    `repaired ${outcomes.reduce((a, o) => a + o.repaired, 0)} removed ${outcomes.reduce((a, o) => a + o.removed, 0)}`,
    `repair calls ${repairCalls}/${calls} = ${pct(calls === 0 ? 0 : repairCalls / calls)} (of which repair requests ${repairRequests})`,
  );
  if (file)
    writeInRepository(file, JSON.stringify({ rows: outcomes.map(({ report: _r, output: _o, ...rest }) => rest), summary: lines }, null, 2));
  return lines.join('\n');
}

/** Writes a matrix's record at `file`, relative to the repository (jest's working directory may be a project's), its folder made if a fresh clone has none. */
export function writeInRepository(file: string, text: string): void {
  const target = path.resolve(__dirname, '../../..', file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
}

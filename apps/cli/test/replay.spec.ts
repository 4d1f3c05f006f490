import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ReportJson } from '@dossier/contracts';
import { ROLES } from '@dossier/agents';
import {
  offlineRoleAnswer,
  createTestDatabase,
  FakeOpenAIServer,
  sql,
  startFakeWeb,
  type FakeWeb,
  type TestDatabase,
} from '@dossier/testing';
import { cliRunner, EXAMPLES } from './cli-harness';

/**
 * Record and replay (issue 16, decision 0030): a run against the local model and search servers is replayed with both
 * still up and asks neither anything; a replay from `draft` with another writer model re-drafts and re-verifies only;
 * an exported run replays in a fresh database; a recording with a hole fails the replay naming the call.
 */

const QUESTION = "How much did Lake Varen's water level fall, and did irrigation cause it?";

const PAGES: Record<string, { title: string; body: string }> = {
  '/news/drawdown-figures': {
    title: 'Regional paper: how far did Lake Varen fall?',
    body: 'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024, according to the water authority. Irrigation withdrawals did not cause the decline, the authority says.',
  },
  '/science/varen-study': {
    title: 'University hydrology group publishes Lake Varen study',
    body: 'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024, the hydrologists report. Irrigation withdrawals caused the decline of Lake Varen, according to the study.',
  },
};

function html(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
}

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

function runIdOf(output: string): string {
  const id = /Run ([0-9a-f-]{36})/.exec(output)?.[1];
  if (!id) throw new Error(`no run id in output:\n${output}`);
  return id;
}

function reportIn(dir: string): ReportJson {
  return ReportJson.parse(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')));
}

/** What a replay must reproduce: sections, sentences, citations, evidence, claims and sources; run ids and times aside. */
function content(report: ReportJson): unknown {
  return {
    question: report.question,
    // The method section is the run's own account (its model use, and that it replayed): compared on its own below.
    // "Model output:" counts the notes of the run's own llm_calls rows, and a replayed answer writes none (decision
    // 0030): the original's count depends on how the fake model phrased an answer, the replay's is 0 by design.
    sections: report.sections.filter((s) => s.kind !== 'method'),
    method: sentences({ ...report, sections: report.sections.filter((s) => s.kind === 'method') }).filter(
      (t) => !t.startsWith('Engine:') && !t.startsWith('Replay of run') && !t.startsWith('Model output:'),
    ),
    evidence: report.evidence,
    claims: report.claims,
    contradictions: report.contradictions,
    sources: Object.fromEntries(Object.entries(report.sources).map(([id, { fetchedAt: _time, ...s }]) => [id, s])),
  };
}

function sentences(report: ReportJson): string[] {
  return report.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((t) => t.text)));
}

describe('dossier replay / export / import: whole runs from their recording', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let model: FakeOpenAIServer;
  let web: FakeWeb;
  const searchRequests = () => web.tavily.requests.length;
  let original: { runId: string; out: string };

  function env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      NODE_ENV: 'test',
      ...web.env(),
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_MODEL: 'fake-model',
      OPENAI_RETRY_BASE_MS: '100',
      OPENAI_RATE_PER_SECOND: '50',
      OPENAI_MAX_OUTPUT_TOKENS: '32768',
      DOSSIER_LLM_TEST_ECHO: '1',
      ...extra,
    };
  }

  const counts = () => ({ model: model.counts.chatRequests, search: searchRequests(), pages: web.pages.requests.length });

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
    model = await new FakeOpenAIServer({ answer: offlineAnswer }).start();
    web = await startFakeWeb(PAGES, { html });

    const out = mkdtempSync(path.join(tmpdir(), 'dossier-recorded-'));
    const r = await cli(
      [
        'research',
        QUESTION,
        '--engine',
        'openai',
        '--search',
        'tavily,corpus',
        '--corpus',
        path.join(EXAMPLES, 'corpus'),
        '--collection',
        'examples',
        '--max-iterations',
        '1',
        '--perspectives',
        '2',
        '--out',
        out,
      ],
      env(),
    );
    if (r.code !== 0) throw new Error(`dossier exited ${r.code}:\n${r.output.slice(-4000)}`);
    original = { runId: runIdOf(r.output), out };
  });

  afterAll(async () => {
    await model?.stop();
    await web?.close();
    await db?.drop();
  });

  it('records every external answer the run consumed: model replies, search hits, pages, corpus documents', async () => {
    const kinds = await sql<{ kind: string; n: string }>(
      db.url,
      'SELECT kind, count(*) AS n FROM run_recordings WHERE run_id = $1 GROUP BY kind ORDER BY kind',
      [original.runId],
    );
    const by = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
    expect(by['model']).toBeGreaterThan(0);
    expect(by['search']).toBeGreaterThan(0);
    expect(by['page']).toBeGreaterThan(0);
    expect(by['document']).toBeGreaterThan(0);
    // One model call recorded per answered request the run paid for.
    const [paid] = await sql<{ n: string }>(
      db.url,
      "SELECT count(DISTINCT (step_key, request_hash)) AS n FROM llm_calls WHERE run_id = $1 AND outcome IN ('ok','invalid','refused')",
      [original.runId],
    );
    expect(by['model']).toBe(Number(paid!.n));
  });

  it('a replay with both servers up asks neither anything and writes the same report', async () => {
    const before = counts();
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-replayed-'));
    const r = await cli(['replay', original.runId, '--out', out], env());
    expect(r.code).toBe(0);
    expect(r.output).toMatch(new RegExp(`replays ${original.runId}`));
    expect(counts()).toEqual(before);
    expect(content(reportIn(out))).toEqual(content(reportIn(original.out)));
    expect(reportIn(out).runId).not.toBe(reportIn(original.out).runId);
    expect(sentences(reportIn(out))).toContain(
      `Replay of run ${original.runId}: every model answer, search result and page came from that run's recording; no external request was made.`,
    );
  });

  it('a replay from draft with another writer model re-drafts and re-verifies, and takes everything before from the recording', async () => {
    const before = model.requests.length;
    const search = searchRequests();
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-from-draft-'));
    const r = await cli(['replay', original.runId, '--from', 'draft', '--out', out], env({ OPENAI_MODEL_SECTION_WRITER: 'fake-writer-2' }));
    expect(r.code).toBe(0);
    const live = model.requests.slice(before);
    const roles = new Set(live.map((q) => q.role));
    expect(roles.has('sectionWriter')).toBe(true);
    expect(roles.has('verifier')).toBe(true);
    // Nothing before draft went to the model or the search provider again.
    const beforeDraft = [
      'director',
      'perspectivePlanner',
      'questionArchitect',
      'queryPlanner',
      'evidenceCurator',
      'claimBuilder',
      'outlineArchitect',
    ];
    expect([...roles].filter((role) => beforeDraft.includes(role))).toEqual([]);
    expect(searchRequests()).toBe(search);
    expect(live.filter((q) => q.role === 'sectionWriter').every((q) => q.body.model === 'fake-writer-2')).toBe(true);
    // The steps from draft on are recorded anew under the replay: its own recording can be replayed in turn.
    const replayId = runIdOf(r.output);
    const steps = await sql<{ step: string }>(db.url, "SELECT DISTINCT step FROM run_recordings WHERE run_id = $1 AND kind = 'model'", [
      replayId,
    ]);
    expect(steps.some((s) => s.step.startsWith('draft.'))).toBe(true);
    expect(steps.some((s) => s.step.startsWith('scope.'))).toBe(true);
    const report = reportIn(out);
    expect(report.sections.map((s) => s.title)).toEqual(reportIn(original.out).sections.map((s) => s.title));
    expect(sentences(report).length).toBeGreaterThan(0);
  });

  it('an exported run, imported into a fresh database, replays there with no request and the same report', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-archive-'));
    const file = path.join(dir, 'run.dossier.gz');
    const exported = await cli(['export', original.runId, '--out', file], env());
    expect(exported.code).toBe(0);
    expect(exported.output).toMatch(/\d+ recorded calls, \d+ answers \(\d+ bytes of recording\)/);
    // No secret of the installation travels: neither the provider key nor the model endpoint's.
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).not.toContain('tvly-test-key');
    expect(text).not.toContain(db.url);

    const fresh = await createTestDatabase();
    try {
      const other = cliRunner(fresh);
      const imported = await other(['import', file], env());
      expect(imported.code).toBe(0);
      const importedId = /Imported run ([0-9a-f-]{36}) \(completed\)/.exec(imported.output)?.[1];
      expect(importedId).toBeDefined();
      const report = await other(['report', importedId!, '--format', 'json'], env());
      expect(content(ReportJson.parse(JSON.parse(report.output)))).toEqual(content(reportIn(original.out)));
      // The header is the imported run's, naming the original as its source (issue 28).
      expect(ReportJson.parse(JSON.parse(report.output))).toMatchObject({ runId: importedId, importedFrom: original.runId });
      const md = await other(['report', importedId!, '--format', 'md'], env());
      expect(md.output).toContain(`Run: ${importedId!} (imported from run ${original.runId})`);

      const before = counts();
      const out = mkdtempSync(path.join(tmpdir(), 'dossier-imported-replay-'));
      const replayed = await other(['replay', importedId!, '--out', out], env());
      expect(replayed.code).toBe(0);
      expect(counts()).toEqual(before);
      expect(content(reportIn(out))).toEqual(content(reportIn(original.out)));
      // The fresh database has no corpus: the documents' text came from the recording.
      const [docs] = await sql<{ n: string }>(fresh.url, 'SELECT count(*) AS n FROM documents');
      expect(Number(docs!.n)).toBe(0);
    } finally {
      await fresh.drop();
    }
  });

  it('a recording that lacks an answer fails the replay with an error naming the missing call, and asks nobody', async () => {
    const [hole] = await sql<{ id: string; step: string; call: string }>(
      db.url,
      "SELECT id, step, call FROM run_recordings WHERE run_id = $1 AND kind = 'search' ORDER BY created_at LIMIT 1",
      [original.runId],
    );
    await sql(db.url, 'DELETE FROM run_recordings WHERE id = $1', [hole!.id]);
    const before = counts();
    const r = await cli(['replay', original.runId], env());
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(`has no answer for search call ${hole!.call} in step ${hole!.step}`);
    expect(counts()).toEqual(before);
  });

  it('bad input gets a clear message: unknown run, another tenant run, unknown node, unreadable or corrupt archive', async () => {
    const unknown = await cli(['replay', '00000000-0000-4000-8000-000000000000'], env());
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/Run 00000000-0000-4000-8000-000000000000 not found/);

    const foreign = await cli(['replay', original.runId], env({ DOSSIER_TENANT: 'another-team' }));
    expect(foreign.output).toMatch(new RegExp(`Run ${original.runId} not found`));

    const node = await cli(['replay', original.runId, '--from', 'drafting'], env());
    expect(node.code).not.toBe(0);
    expect(node.output).toMatch(/--from drafting is not a node of run .* \(nodes: .*draft/);

    const notId = await cli(['export', 'last-week'], env());
    expect(notId.code).toBe(2);

    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-bad-archive-'));
    const garbage = path.join(dir, 'garbage.gz');
    writeFileSync(garbage, 'this is not an archive');
    const g = await cli(['import', garbage], env());
    expect(g.code).not.toBe(0);
    expect(g.output).toMatch(/Not a Dossier run archive: not gzip data/);

    const missing = await cli(['import', path.join(dir, 'nope.gz')], env());
    expect(missing.code).toBe(2);
    expect(missing.output).toMatch(/Cannot read .*nope\.gz: ENOENT/);

    // A real archive with one answer altered: refused by its hash, nothing imported.
    const file = path.join(dir, 'run.dossier.gz');
    expect((await cli(['export', original.runId, '--out', file], env())).code).toBe(0);
    const archive = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as {
      recording: { answers: { kind: string; body: unknown }[] };
    };
    const page = archive.recording.answers.find((a) => a.kind === 'page')!;
    (page.body as { text: string }).text += ' Irrigation was never mentioned.';
    const tampered = path.join(dir, 'tampered.gz');
    writeFileSync(tampered, gzipSync(JSON.stringify(archive)));
    const runsBefore = await sql(db.url, 'SELECT id FROM research_runs');
    const t = await cli(['import', tampered], env());
    expect(t.code).not.toBe(0);
    expect(t.output).toMatch(/Corrupt run archive: the page answer [0-9a-f]{12} does not match its hash/);
    expect(await sql(db.url, 'SELECT id FROM research_runs')).toHaveLength(runsBefore.length);
  });

  it("web search answers are the tenant's cache across runs; --fresh-search asks again", async () => {
    const tenant = { DOSSIER_TENANT: 'cache-team' };
    const args = ['research', 'What is known about the Lake Varen drawdown?', '--search', 'tavily', '--max-iterations', '1'];
    const first = await cli([...args, '--out', mkdtempSync(path.join(tmpdir(), 'dossier-cache1-'))], env(tenant));
    expect(first.code).toBe(0);
    const asked = searchRequests();
    const second = await cli([...args, '--out', mkdtempSync(path.join(tmpdir(), 'dossier-cache2-'))], env(tenant));
    expect(second.code).toBe(0);
    expect(searchRequests()).toBe(asked);
    // The cached answers are in the second run's recording too: it replays like any other.
    const secondId = runIdOf(second.output);
    const [n] = await sql<{ n: string }>(db.url, "SELECT count(*) AS n FROM run_recordings WHERE run_id = $1 AND kind = 'search'", [
      secondId,
    ]);
    expect(Number(n!.n)).toBeGreaterThan(0);
    const fresh = await cli([...args, '--fresh-search', '--out', mkdtempSync(path.join(tmpdir(), 'dossier-cache3-'))], env(tenant));
    expect(fresh.code).toBe(0);
    expect(searchRequests()).toBeGreaterThan(asked);
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { ReportJson, type Intervention } from '@dossier/contracts';
import { RunStateError } from '@dossier/errors';
import {
  createTestDatabase,
  sql,
  startFakeServer,
  tavilyApi,
  uniquePrefix,
  waitFor,
  type FakeHttpServer,
  type TestDatabase,
} from '@dossier/testing';
import { RunCommands, RunsModule } from '@dossier/runs';
import { AuditLog, WorkflowModule } from '@dossier/workflow';
import { cliRunner, EXAMPLES, type CliResult } from './cli-harness';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const ADDED = 'What did the Kessmark Climate Office bulletin say about rainfall at Lake Varen?';
const EXCLUDED_DOMAIN = 'varen-news.example';
const SCOPE = 'Only the years 2015 to 2024';

/**
 * A small "web" on two (reserved, never resolved) domains. Its pages are already in the tenant's snapshot
 * cache, so source policy reads them without a request: the test needs no network and no allowlist.
 */
const PAGES = [
  {
    url: `https://gazette.${EXCLUDED_DOMAIN}/2024/lake-varen-drawdown`,
    title: 'Varen Gazette: the lake that drained',
    text: "The water level of Lake Varen fell by 5.3 metres between 2015 and 2024, the Varen Gazette reports. A leaking dam caused the decline of Lake Varen's water level, according to the gazette. The decline of the water level of Lake Varen left the ferry jetty dry.",
  },
  {
    url: 'https://hydro.eskerford-uni.example/varen-water-balance',
    title: 'Eskerford hydrology: the water balance of Lake Varen',
    text: 'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024, the hydrologists report. Irrigation withdrawals caused the decline of Lake Varen, according to the water balance study.',
  },
];

function hostIn(url: string, domain: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  return host === domain || host.endsWith(`.${domain}`);
}

describe('interventions on a live run: queued at the plan gate, applied by moderate at the loop boundary (CLI run, Tavily test server)', () => {
  let db: TestDatabase;
  let tavily: FakeHttpServer;
  let client: INestApplicationContext;
  let commands: RunCommands;
  let tenantId: string;
  let runId: string;
  let result: CliResult;
  let shown: string;
  let queued: Intervention[];
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-interv-'));
  const prefix = uniquePrefix('interv');

  beforeAll(async () => {
    db = await createTestDatabase();
    const cli = cliRunner(db);
    tavily = await startFakeServer(
      tavilyApi(
        'tvly-test-key',
        PAGES.map((p, i) => ({ title: p.title, url: p.url, text: p.text.slice(0, 120), score: 0.9 - i * 0.1 })),
      ),
    );
    const env = {
      QUEUE_PREFIX: prefix,
      NODE_ENV: 'test',
      TAVILY_API_KEY: 'tvly-test-key',
      TAVILY_BASE_URL: tavily.url,
    };

    // The tenant, and its cached copies of the web pages.
    expect((await cli(['runs'], env)).code).toBe(0);
    [{ id: tenantId }] = (await sql<{ id: string }>(db.url, "SELECT id FROM tenants WHERE name = 'local'")) as [{ id: string }];
    for (const p of PAGES) {
      await sql(
        db.url,
        "INSERT INTO source_snapshots (id, tenant_id, url, title, content_hash, text, media_type) VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'text/html')",
        [tenantId, p.url, p.title, createHash('sha256').update(p.text, 'utf8').digest('hex'), p.text],
      );
    }

    // A client context like the gateway's: the engine's commands, no workers, the run's queues.
    client = await NestFactory.createApplicationContext(
      {
        module: class InterventionsClient {},
        imports: [
          WorkflowModule.forRoot({
            databaseUrl: db.url,
            databasePoolMax: 2,
            redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
            queuePrefix: prefix,
            consume: [],
            concurrency: 1,
            stepLockMs: 30_000,
            stalledIntervalMs: 30_000,
            attempts: 3,
            backoffMs: 1_000,
          }),
          RunsModule,
        ],
      },
      { logger: false },
    );
    await client.init();
    commands = client.get(RunCommands);

    // `--approve prompt` without a terminal: the run waits at the plan gate for a decision from elsewhere.
    const running = cli(
      [
        'research',
        QUESTION,
        '--search',
        'tavily,corpus',
        '--corpus',
        path.join(EXAMPLES, 'corpus'),
        '--collection',
        'examples',
        '--max-iterations',
        '2',
        '--approve',
        'prompt',
        '--out',
        out,
      ],
      env,
    );
    runId = await waitFor(
      'the plan gate to open',
      async () => (await sql<{ id: string }>(db.url, "SELECT id FROM research_runs WHERE awaiting_gate = 'plan'"))[0]?.id,
      { intervalMs: 200 },
    );
    // Queued through the CLI (`dossier intervene`), as a person at the terminal would; bad input is refused with the reason.
    const two = await cli(['intervene', runId, '--add-question', ADDED, '--narrow-scope', SCOPE], env);
    expect([two.code, two.output]).toEqual([2, expect.stringMatching(/exactly one of --add-question/)]);
    const bad = await cli(['intervene', runId, '--exclude-domain', 'https://varen-news.example/page'], env);
    expect([bad.code, bad.output]).toEqual([1, expect.stringMatching(/Invalid intervention: domain: a host name such as example.com/)]);
    for (const flags of [
      ['--add-question', ADDED],
      ['--exclude-domain', EXCLUDED_DOMAIN],
      ['--narrow-scope', SCOPE],
    ]) {
      const r = await cli(['intervene', runId, ...flags], env);
      expect([r.code, r.output]).toEqual([
        0,
        expect.stringMatching(/^Queued .* on run .*: applied at the next research-loop boundary\.$/m),
      ]);
    }
    queued = await commands.listInterventions(tenantId, runId);
    expect(queued.map((q) => [q.input.type, q.status, q.createdBy])).toEqual([
      ['add_question', 'pending', 'cli'],
      ['exclude_domain', 'pending', 'cli'],
      ['narrow_scope', 'pending', 'cli'],
    ]);
    await commands.decideGate(tenantId, runId, 'plan', { decision: 'approve' }, 'alice');

    // Research is over once the outline gate opens: an intervention now is refused, and the run goes on.
    await waitFor(
      'the outline gate to open',
      async () => (await sql(db.url, "SELECT 1 FROM research_runs WHERE id = $1 AND awaiting_gate = 'outline'", [runId]))[0],
      { intervalMs: 200 },
    );
    await expect(
      commands.intervene(tenantId, runId, { type: 'add_question', question: 'Too late to ask?' }, 'alice'),
    ).rejects.toBeInstanceOf(RunStateError);
    await commands.decideGate(tenantId, runId, 'outline', { decision: 'approve' }, 'alice');
    await waitFor(
      'the publish gate to open',
      async () => (await sql(db.url, "SELECT 1 FROM research_runs WHERE id = $1 AND awaiting_gate = 'publish'", [runId]))[0],
      { intervalMs: 200 },
    );
    await commands.decideGate(tenantId, runId, 'publish', { decision: 'approve' }, 'alice');
    result = await running;
    shown = (await cli(['show', runId], env)).output;
  });

  afterAll(async () => {
    await client?.close();
    await tavily?.close();
    await db?.drop();
  });

  it('completes; every intervention is applied at iteration 0, with a queued and an applied audit row, and the chain verifies', async () => {
    expect(result.output).toMatch(/Report written to/);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/iteration 0 {2}intervention applied: add question/);
    const after = await commands.listInterventions(tenantId, runId);
    expect(after.map((i) => [i.id, i.status, i.appliedIteration])).toEqual(queued.map((q) => [q.id, 'applied', 0]));
    expect(after.every((i) => i.appliedAt !== null)).toBe(true);
    const audit = await sql<{ kind: string; payload: string }>(
      db.url,
      "SELECT kind, payload FROM audit_events WHERE run_id = $1 AND kind LIKE 'intervention_%' ORDER BY seq",
      [runId],
    );
    expect(audit.map((a) => a.kind)).toEqual([
      'intervention_queued',
      'intervention_queued',
      'intervention_queued',
      'intervention_applied',
      'intervention_applied',
      'intervention_applied',
    ]);
    await expect(client.get(AuditLog).verify(tenantId, runId)).resolves.toMatchObject({ ok: true });
    expect(shown).toContain(`intervention exclude domain "${EXCLUDED_DOMAIN}": applied at iteration 0 (by cli)`);
  });

  it('the added question is researched in the next iteration', async () => {
    const [q] = await sql<{ id: string; iteration: number; priority: number }>(
      db.url,
      'SELECT id, iteration, priority FROM research_questions WHERE run_id = $1 AND text = $2',
      [runId, ADDED],
    );
    expect(q).toMatchObject({ iteration: 1, priority: 100 });
    const plans = await sql<{ iteration: number }>(db.url, 'SELECT iteration FROM search_plans WHERE run_id = $1 AND question_id = $2', [
      runId,
      q!.id,
    ]);
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((p) => p.iteration === 1)).toBe(true);
    expect(
      (await sql(db.url, "SELECT 1 FROM node_executions WHERE run_id = $1 AND node = 'moderate' AND status = 'completed'", [runId])).length,
    ).toBe(2);
  });

  it('the excluded domain: read before the intervention, dropped with its evidence and claims, never read again, absent from the report', async () => {
    const records = await sql<{ canonical_url: string; iteration: number; selected: boolean; excluded_by: string | null }>(
      db.url,
      'SELECT canonical_url, iteration, selected, excluded_by FROM source_records WHERE run_id = $1',
      [runId],
    );
    const fromDomain = records.filter((r) => hostIn(r.canonical_url, EXCLUDED_DOMAIN));
    // Not vacuous: iteration 0 read the page, and the intervention dropped what came from it.
    expect(fromDomain.some((r) => r.iteration === 0 && r.selected)).toBe(true);
    expect(fromDomain.filter((r) => r.iteration === 0).every((r) => r.excluded_by === queued[1]!.id)).toBe(true);
    expect(fromDomain.some((r) => r.iteration === 1 && r.selected)).toBe(false);
    const [applied] = await sql<{ payload: string }>(
      db.url,
      "SELECT payload FROM audit_events WHERE run_id = $1 AND kind = 'intervention_applied' AND payload LIKE '%exclude_domain%'",
      [runId],
    );
    const dropped = (JSON.parse(applied!.payload) as { dropped: { sources: number; evidence: number; claims: number } }).dropped;
    expect(dropped.sources).toBeGreaterThan(0);
    expect(dropped.evidence).toBeGreaterThan(0);

    const evidence = await sql<{ url: string }>(
      db.url,
      'SELECT s.url FROM evidence_fragments e JOIN source_snapshots s ON s.id = e.snapshot_id WHERE e.run_id = $1',
      [runId],
    );
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence.filter((e) => hostIn(e.url, EXCLUDED_DOMAIN))).toEqual([]);

    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    expect(Object.values(report.sources).filter((s) => hostIn(s.url, EXCLUDED_DOMAIN))).toEqual([]);
    expect(Object.values(report.evidence).filter((e) => /5\.3 metres|leaking dam/.test(e.excerpt))).toEqual([]);
    expect(Object.values(report.claims).filter((c) => /5\.3 metres|leaking dam/.test(c.text))).toEqual([]);
    // The other web domain is still used.
    expect(Object.values(report.sources).some((s) => hostIn(s.url, 'eskerford-uni.example'))).toBe(true);
  });

  it('the narrowed scope steers later queries and is stated in the report, whose method section lists the interventions', async () => {
    const plans = await sql<{ iteration: number; query: string }>(db.url, 'SELECT iteration, query FROM search_plans WHERE run_id = $1', [
      runId,
    ]);
    expect(plans.filter((p) => p.iteration === 0 && /2015/.test(p.query))).toEqual([]);
    expect(plans.some((p) => p.iteration === 1 && /2015/.test(p.query) && /2024/.test(p.query))).toBe(true);
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const text = (kind: string) =>
      report.sections
        .filter((s) => s.kind === kind)
        .flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)))
        .join('\n');
    expect(text('framing')).toContain(`Its scope was narrowed during research to: ${SCOPE}.`);
    expect(text('method')).toContain(
      `Interventions applied during research: question added after iteration 1: "${ADDED}"; sources from ${EXCLUDED_DOMAIN} excluded after iteration 1; scope narrowed after iteration 1: "${SCOPE}".`,
    );
  });
});

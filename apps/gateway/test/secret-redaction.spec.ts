import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApiKeyRepository, PrismaService, TenantRepository } from '@dossier/db';
import {
  createTestDatabase,
  FakeOpenAIServer,
  sql,
  startChildService,
  uniquePrefix,
  waitFor,
  type ChildService,
  type TestDatabase,
} from '@dossier/testing';
import { client } from './gateway-harness';

/**
 * Security review, finding 1: an OpenAI-compatible endpoint whose error text echoes the `Authorization` header
 * (proxies do) put the operator's key into the run's failure reason, its events, the audit log, llm_calls,
 * node_executions and the logs. The gateway runs as its own process (its whole output is the log), hosting every
 * stage, against a local model server that answers every request with such an echo.
 */
describe("the operator's model API key never reaches a tenant, a table or a log", () => {
  // No recognisable shape (no sk- prefix): only the redaction of configured secrets can find it in bare form.
  const KEY = `opk${randomBytes(24).toString('base64url')}`;
  let db: TestDatabase;
  let llm: FakeOpenAIServer;
  let gateway: ChildService;
  let api: ReturnType<typeof client>;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    llm = await new FakeOpenAIServer({ answer: () => ({}) }).start();
    for (let i = 0; i < 20; i++) llm.script('*', { kind: 'echo_headers', status: 401 });
    const prisma = new PrismaService({ url: db.url, poolMax: 2 });
    try {
      const tenant = await new TenantRepository(prisma).create('leaky', {});
      const { key } = await new ApiKeyRepository(prisma).create(tenant.id, 'leaky-robot');
      gateway = startChildService(path.join(__dirname, 'fixtures/gateway-with-stages.ts'), {
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: uniquePrefix('leak'),
        PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'debug',
        OPENAI_BASE_URL: llm.baseUrl,
        OPENAI_MODEL: 'fake-model',
        OPENAI_API_KEY: KEY,
        OPENAI_MAX_RETRIES: '0',
        OPENAI_RETRY_BASE_MS: '50',
        DOSSIER_LLM_TEST_ECHO: '1',
        STEP_LOCK_MS: '2000',
        STALLED_INTERVAL_MS: '1000',
        STEP_BACKOFF_MS: '100',
      });
      const line = await gateway.waitForOutput(/test gateway listening on \d+/);
      base = `http://127.0.0.1:${/(\d+)$/.exec(line)![1]}`;
      api = client(base, key);
    } finally {
      await prisma.$disconnect();
    }
  }, 180_000);

  afterAll(async () => {
    gateway?.kill();
    await gateway?.exited;
    await llm?.stop();
    await db?.drop();
  });

  it('a run failed by an echoing endpoint: the key is in no response, event, row or log line; the failure is still told', async () => {
    const created = await api('POST', '/v1/runs', { question: 'Why did the lake level fall?', options: { engine: 'openai' } });
    expect(created.status).toBe(201);
    const runId = created.json.id as string;
    const run = await waitFor(
      'the run to fail',
      async () => {
        const r = await api('GET', `/v1/runs/${runId}`);
        return r.json.status === 'failed' ? r : undefined;
      },
      { intervalMs: 200 },
    );
    // The endpoint was asked, and answered with the echo (the key in it three ways).
    expect(llm.counts.chatRequests).toBeGreaterThanOrEqual(1);
    // The tenant reads a reason code and a clean message: the provider's first words, not its echo of our request.
    expect(run.json.failureReason).toMatch(/model endpoint rejected .*\(401\).*\(llm_request_rejected\)$/);
    expect(run.json.failureReason).not.toMatch(/authorization|host:|user-agent|redacted/i);

    const responses = [
      run.text,
      (await api('GET', '/v1/runs')).text,
      (await api('GET', `/v1/runs/${runId}/audit`)).text,
      (await api('GET', `/v1/runs/${runId}/events`)).text,
    ];
    const tables = ['research_runs', 'run_events', 'audit_events', 'llm_calls', 'node_executions'];
    const rows: Record<string, string> = {};
    for (const table of tables) {
      // The database is this test's own: every row is this run's.
      const dump = await sql<{ row: string }>(db.url, `SELECT row_to_json(t)::text AS row FROM ${table} t`);
      rows[table] = dump.map((r) => r.row).join('\n');
    }
    const logs = gateway.output();

    for (const [where, text] of [
      ...responses.map((t, i) => [`response ${i}`, t] as const),
      ...Object.entries(rows),
      ['logs', logs] as const,
    ]) {
      expect({ where, leaked: text.includes(KEY) }).toEqual({ where, leaked: false });
    }
    // Not vacuous: the echo was recorded, redacted, where operators look (llm_calls holds the provider's whole text).
    expect(rows['llm_calls']).toContain('[redacted]');
    expect(rows['llm_calls']).toMatch(/Request headers/);
    expect(rows['node_executions']).toContain('LlmRequestError: The model endpoint rejected');
    expect(responses[3]).toMatch(/event: run_failed/);
    expect(logs).toMatch(/"runId":"[0-9a-f-]{36}"/);
  }, 180_000);
});

import { PrismaService } from '@dossier/db';
import { startTcpProxy, waitFor, type FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner, director } from '@dossier/agents';
import { PrismaAgentStore } from '../src';
import { QUESTION, startFakeLlm, testEngine } from './fixtures/fake-llm';
import { openRunsDatabase, type RunsDatabase } from './fixtures/runs-database';

const ADMIN_URL = new URL(process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres');

/**
 * A step that runs again after its process died mid-step asks the model the same questions in the same words.
 * Answers it already received are kept in llm_calls and reused: the model is not paid twice (found by the chaos
 * soak, where every kill of a worker in the middle of an openai step paid for that step's answers again).
 */
describe('an answered model request is never paid for twice', () => {
  let runs: RunsDatabase;
  let prisma: PrismaService;
  let server: FakeOpenAIServer;
  let tenantId: string;

  beforeAll(async () => {
    runs = await openRunsDatabase(4);
    ({ prisma, tenantId } = runs);
  });
  afterAll(async () => {
    await runs?.close();
  });
  beforeEach(async () => {
    server = await startFakeLlm();
  });
  afterEach(async () => {
    await server?.stop();
  });

  const openaiRun = () => runs.run({ engine: 'openai' });

  /** A fresh runner and engine, as a new worker process has after the old one was killed. */
  function worker(store: PrismaService = prisma): AgentRunner {
    const adapter = new PrismaAgentStore(store);
    return new AgentRunner(adapter, { engine: 'per-run', perRun: { store: adapter, openai: () => testEngine(server) } });
  }

  it('the same step run again by another process reuses the answer: no request, no new llm_calls row, the same output', async () => {
    const runId = await openaiRun();
    const ctx = { tenantId, runId, stepKey: `${runId}.scope.0.0` };
    const first = await worker().run(director, { question: QUESTION }, ctx);
    expect(server.counts.chatRequests).toBe(1);
    const [row] = await prisma.llmCall.findMany({ where: { runId } });
    expect(row).toMatchObject({
      outcome: 'ok',
      requestHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      answer: expect.objectContaining({ content: expect.any(String) }),
    });

    const again = await worker().run(director, { question: QUESTION }, ctx);
    expect(again).toEqual(first);
    expect(server.counts.chatRequests).toBe(1);
    expect(await prisma.llmCall.count({ where: { runId } })).toBe(1);
  });

  it('a repaired answer is reused round by round: the invalid reply and the repair request are not sent again', async () => {
    const runId = await openaiRun();
    const ctx = { tenantId, runId, stepKey: `${runId}.scope.0.0` };
    server.script('director', { kind: 'raw', content: 'not json at all' });
    const first = await worker().run(director, { question: QUESTION }, ctx);
    expect(server.counts.chatRequests).toBe(2);
    const again = await worker().run(director, { question: QUESTION }, ctx);
    expect(again).toEqual(first);
    expect(server.counts.chatRequests).toBe(2);
    expect((await prisma.llmCall.findMany({ where: { runId }, orderBy: { createdAt: 'asc' } })).map((r) => r.outcome)).toEqual([
      'invalid',
      'ok',
    ]);
  });

  it('only the same step reuses it: another step, or another question, asks the model', async () => {
    const runId = await openaiRun();
    await worker().run(director, { question: QUESTION }, { tenantId, runId, stepKey: `${runId}.scope.0.0` });
    await worker().run(director, { question: QUESTION }, { tenantId, runId, stepKey: `${runId}.scope.1.0` });
    await worker().run(director, { question: `${QUESTION} In metres?` }, { tenantId, runId, stepKey: `${runId}.scope.0.0` });
    expect(server.counts.chatRequests).toBe(3);
  });

  it('a request that got no answer (a 500) is sent again: there is nothing to reuse', async () => {
    const runId = await openaiRun();
    const ctx = { tenantId, runId, stepKey: `${runId}.scope.0.0` };
    server.script(
      'director',
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    );
    await expect(worker().run(director, { question: QUESTION }, ctx)).rejects.toThrow(/no usable answer/);
    await worker().run(director, { question: QUESTION }, ctx);
    expect(server.counts.chatRequests).toBe(5);
  });

  it('an answer that arrives while Postgres is briefly unreachable is still recorded (and so never paid again)', async () => {
    const proxy = await startTcpProxy(ADMIN_URL.hostname, Number(ADMIN_URL.port || 5432));
    const url = new URL(runs.url);
    url.port = String(proxy.port);
    const store = new PrismaService({ url: url.toString(), poolMax: 2 });
    await server.stop();
    // Postgres goes away the moment the request reaches the model, and comes back only once recording the answer
    // has failed at least once.
    server = await startFakeLlm({
      latencyMs: () => {
        proxy.cut();
        return 200;
      },
    });
    try {
      const runId = await openaiRun();
      const ctx = { tenantId, runId, stepKey: `${runId}.scope.0.0` };
      const call = worker(store).run(director, { question: QUESTION }, ctx);
      await waitFor('the answer to be sent', () => server.requests[0]?.outcome === 200, { intervalMs: 20 });
      await waitFor('recording it to meet the outage', () => proxy.refused > 0, { intervalMs: 20 });
      proxy.restore();
      await call;
      expect(server.requests.map((r) => r.outcome)).toEqual([200]);
      const [row] = await prisma.llmCall.findMany({ where: { runId } });
      expect(row).toMatchObject({ outcome: 'ok', id: server.requests[0]!.callId, answer: expect.anything() });
    } finally {
      await store.$disconnect();
      await proxy.close();
    }
  });
});

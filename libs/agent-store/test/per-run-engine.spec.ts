import { Redis } from 'ioredis';
import type { BudgetKind, RunOptionsInput } from '@dossier/contracts';
import type { PrismaService } from '@dossier/db';
import type { FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner, director, LlmConfigError, openAIEngineFromEnv } from '@dossier/agents';
import { PrismaAgentStore } from '../src';
import { QUESTION, startFakeLlm, testEngine } from './fixtures/fake-llm';
import { openRunsDatabase, type RunsDatabase } from './fixtures/runs-database';

describe('AgentRunner per run: engine from the run options, budgets reserved in llm_calls', () => {
  let runs: RunsDatabase;
  let prisma: PrismaService;
  let server: FakeOpenAIServer;
  let tenantId: string;

  beforeAll(async () => {
    runs = await openRunsDatabase(6);
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

  const run = (options: RunOptionsInput) => runs.run(options);

  /** Stands in for RunCommands.markBudgetExhausted (tested with the workflow in the CLI budget test). */
  function sink() {
    const marked: BudgetKind[] = [];
    return {
      marked,
      markBudgetExhausted: async (t: string, runId: string, budget: BudgetKind) => {
        marked.push(budget);
        await prisma.researchRun.updateMany({ where: { id: runId, tenantId: t }, data: { budgetExhausted: budget } });
        return true;
      },
    };
  }

  function runner(env: Record<string, string> = {}, budgetSink = sink()) {
    const store = new PrismaAgentStore(prisma);
    return new AgentRunner(store, { engine: 'per-run', perRun: { store, openai: () => testEngine(server, env), budgetSink } });
  }

  it('an openai run calls the model; an offline run does not; every request is one llm_calls row with the server usage', async () => {
    const r = runner();
    const online = await run({ engine: 'openai' });
    const offline = await run({ engine: 'offline' });
    const a = await r.run(director, { question: QUESTION }, { tenantId, runId: online, stepKey: `${online}.scope.0.0` });
    const b = await r.run(director, { question: QUESTION }, { tenantId, runId: offline, stepKey: `${offline}.scope.0.0` });
    expect(a).toEqual(b);
    expect(server.counts.chatRequests).toBe(1);
    const rows = await prisma.llmCall.findMany({ where: { runId: online } });
    expect(rows).toEqual([
      expect.objectContaining({
        engine: 'openai',
        model: 'fake-model',
        outcome: 'ok',
        tokensIn: server.counts.promptTokens,
        tokensOut: server.counts.completionTokens,
        stepKey: `${online}.scope.0.0`,
      }),
    ]);
    expect(await prisma.llmCall.findMany({ where: { runId: offline } })).toEqual([expect.objectContaining({ engine: 'offline' })]);
  });

  it('a 429 and the retry are two rows, as the server counted two requests', async () => {
    const id = await run({ engine: 'openai' });
    server.script('director', { kind: 'status', status: 429, retryAfter: '0' });
    await runner().run(director, { question: QUESTION }, { tenantId, runId: id, stepKey: `${id}.scope.0.0` });
    const rows = await prisma.llmCall.findMany({ where: { runId: id }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => r.outcome)).toEqual(['error', 'ok']);
    expect(rows.length).toBe(server.counts.chatRequests);
  });

  it('a run asking for openai on a worker without its settings fails naming the variable', async () => {
    const id = await run({ engine: 'openai' });
    const store = new PrismaAgentStore(prisma);
    const r = new AgentRunner(store, {
      engine: 'per-run',
      perRun: { store, openai: () => openAIEngineFromEnv({ OPENAI_MODEL: 'x' }, null) },
    });
    const err = await r.run(director, { question: QUESTION }, { tenantId, runId: id, stepKey: `${id}.scope.0.0` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmConfigError);
    expect((err as Error).message).toMatch(/OPENAI_BASE_URL is not set/);
  });

  it('token budget: spending stops at the budget plus at most one request, the run is marked, later calls are offline', async () => {
    const budget = 6_000;
    const id = await run({ engine: 'openai', budgets: { tokens: budget } });
    const s = sink();
    const r = runner({ OPENAI_MAX_OUTPUT_TOKENS: '300' }, s);
    const ctx = (i: number) => ({ tenantId, runId: id, stepKey: `${id}.scope.${i}.0` });
    // Eight at a time, like parallel shards on several workers.
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => r.run(director, { question: `${QUESTION} (${wave}.${i})` }, ctx(wave * 8 + i))),
      );
    }
    const rows = await prisma.llmCall.findMany({ where: { runId: id } });
    const online = rows.filter((x) => x.engine === 'openai');
    const spent = online.reduce((n, x) => n + x.tokensIn + x.tokensOut, 0);
    const largest = Math.max(...online.map((x) => x.tokensIn + x.tokensOut));
    expect(online.length).toBe(server.counts.chatRequests);
    expect(spent).toBe(server.counts.promptTokens + server.counts.completionTokens);
    expect(spent).toBeGreaterThan(budget / 2);
    expect(spent).toBeLessThanOrEqual(budget + largest);
    expect(rows.filter((x) => x.engine === 'offline').length).toBe(32 - online.length);
    expect(s.marked[0]).toBe('tokens');
    expect((await prisma.researchRun.findUnique({ where: { id } }))!.budgetExhausted).toBe('tokens');
    expect(online.every((x) => x.outcome === 'ok')).toBe(true);
  });

  it('two workers in parallel share the provider rate limit through Redis: the server never sees more than N per second', async () => {
    await server?.stop();
    const N = 4;
    server = await startFakeLlm({ requestsPerSecond: N });
    const connections = [
      new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'),
      new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'),
    ];
    try {
      // Two engines on two connections, built as workers build them: one limit per base URL, shared through Redis.
      const env = {
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_MODEL: 'fake-model',
        OPENAI_RATE_PER_SECOND: String(N),
        OPENAI_RATE_MARGIN_MS: '200',
        NODE_ENV: 'test',
        DOSSIER_LLM_TEST_ECHO: '1',
      };
      const engines = connections.map((redis) => openAIEngineFromEnv(env, redis));
      const id = await run({ engine: 'openai' });
      const runners = engines.map((e) => new AgentRunner(new PrismaAgentStore(prisma), { engine: e }));
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          runners[i % 2]!.run(director, { question: `${QUESTION} ${i}` }, { tenantId, runId: id, stepKey: `${id}.scope.${i}.0` }),
        ),
      );
      expect(server.counts.chatRequests).toBe(12);
      expect(server.counts.rateLimited).toBe(0);
      expect(server.counts.maxPerSecond).toBeLessThanOrEqual(N);
    } finally {
      for (const c of connections) c.disconnect();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { RunOptions, type BudgetKind, type RunOptionsInput } from '@dossier/contracts';
import type { FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner } from '../../src/agent-runner';
import { decide } from '../../src/budget/budget-ledger';
import { director } from '../../src/roles';
import { startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { QUESTION } from '../fixtures/golden-gate';
import { MemoryAgentStore } from '../fixtures/memory-agent-store';
import { MemoryExternalAnswers } from '../fixtures/memory-external-answers';

/**
 * The agents know no database (docs/decisions/0034): a role, the offline engine and the OpenAI-compatible engine
 * (against the fake model server) run over in-memory ports, with the same engine choice, budget and answer-reuse
 * rules as over Postgres (libs/agent-store/test runs those through PrismaAgentStore).
 */
describe('agents with no database: roles and engines over in-memory ports', () => {
  let server: FakeOpenAIServer;
  let store: MemoryAgentStore;
  const tenantId = randomUUID();

  beforeEach(async () => {
    server = await startFakeLlm();
    store = new MemoryAgentStore();
  });
  afterEach(async () => {
    await server?.stop();
  });

  function run(options: RunOptionsInput): string {
    const runId = randomUUID();
    store.addRun(tenantId, runId, RunOptions.parse(options));
    return runId;
  }

  /** Stands in for RunCommands.markBudgetExhausted: marks the in-memory run. */
  function sink() {
    const marked: BudgetKind[] = [];
    return {
      marked,
      markBudgetExhausted: async (_t: string, runId: string, budget: BudgetKind) => {
        marked.push(budget);
        store.runs.get(runId)!.budgetExhausted = budget;
        return true;
      },
    };
  }

  /** A fresh runner and engine over the same store, as a new worker process has. */
  function worker(env: Record<string, string> = {}, budgetSink = sink(), answers?: MemoryExternalAnswers): AgentRunner {
    return new AgentRunner(store, {
      engine: 'per-run',
      perRun: { store, openai: () => testEngine(server, env), budgetSink },
      ...(answers ? { answers } : {}),
    });
  }

  it("each run's options choose its engine: an openai run asks the model (one row per request), an offline run does not", async () => {
    const online = run({ engine: 'openai' });
    const offline = run({ engine: 'offline' });
    const r = worker();
    const a = await r.run(director, { question: QUESTION }, { tenantId, runId: online, stepKey: `${online}.scope.0.0` });
    const b = await r.run(director, { question: QUESTION }, { tenantId, runId: offline, stepKey: `${offline}.scope.0.0` });
    expect(a).toEqual(b);
    expect(server.counts.chatRequests).toBe(1);
    expect(store.calls.filter((c) => c.runId === online)).toEqual([
      expect.objectContaining({
        engine: 'openai',
        outcome: 'ok',
        tokensIn: server.counts.promptTokens,
        tokensOut: server.counts.completionTokens,
      }),
    ]);
    expect(store.calls.filter((c) => c.runId === offline)).toEqual([expect.objectContaining({ engine: 'offline', outcome: 'ok' })]);
  });

  it('a run in another tenant is not found: its calls are offline', async () => {
    const online = run({ engine: 'openai' });
    const other = randomUUID();
    await worker().run(director, { question: QUESTION }, { tenantId: other, runId: online, stepKey: `${online}.scope.0.0` });
    expect(server.counts.chatRequests).toBe(0);
    expect(store.calls).toEqual([expect.objectContaining({ tenantId: other, engine: 'offline' })]);
  });

  it('token budget: parallel calls stop spending at the budget plus at most one request; the run is marked; later calls are offline', async () => {
    const budget = 6_000;
    const runId = run({ engine: 'openai', budgets: { tokens: budget } });
    const s = sink();
    const r = worker({ OPENAI_MAX_OUTPUT_TOKENS: '300' }, s);
    const ctx = (i: number) => ({ tenantId, runId, stepKey: `${runId}.scope.${i}.0` });
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => r.run(director, { question: `${QUESTION} (${wave}.${i})` }, ctx(wave * 8 + i))),
      );
    }
    const online = store.calls.filter((c) => c.engine === 'openai');
    const spent = online.reduce((n, c) => n + c.tokensIn + c.tokensOut, 0);
    const largest = Math.max(...online.map((c) => c.tokensIn + c.tokensOut));
    expect(online.length).toBe(server.counts.chatRequests);
    expect(online.every((c) => c.outcome === 'ok')).toBe(true);
    expect(spent).toBe(server.counts.promptTokens + server.counts.completionTokens);
    expect(spent).toBeGreaterThan(budget / 2);
    expect(spent).toBeLessThanOrEqual(budget + largest);
    expect(store.calls.filter((c) => c.engine === 'offline')).toHaveLength(32 - online.length);
    expect(s.marked[0]).toBe('tokens');
    expect(store.runs.get(runId)!.budgetExhausted).toBe('tokens');

    // Once marked, no request is even attempted.
    const before = server.counts.chatRequests;
    await worker().run(director, { question: `${QUESTION} later` }, ctx(99));
    expect(server.counts.chatRequests).toBe(before);
  });

  it('the same step run again by another worker reuses the answer it paid for: no request, no new row, the same output', async () => {
    const runId = run({ engine: 'openai' });
    const ctx = { tenantId, runId, stepKey: `${runId}.scope.0.0` };
    server.script('director', { kind: 'raw', content: 'not json at all' });
    const first = await worker().run(director, { question: QUESTION }, ctx);
    expect(server.counts.chatRequests).toBe(2);
    expect(store.calls.map((c) => c.outcome)).toEqual(['invalid', 'ok']);

    const again = await worker().run(director, { question: QUESTION }, ctx);
    expect(again).toEqual(first);
    expect(server.counts.chatRequests).toBe(2);
    expect(store.calls).toHaveLength(2);

    // Another step asks the model.
    await worker().run(director, { question: QUESTION }, { ...ctx, stepKey: `${runId}.scope.1.0` });
    expect(server.counts.chatRequests).toBe(3);
  });

  it('an answer is settled in llm_calls even when recording it fails; the failure reaches the step', async () => {
    const online = run({ engine: 'openai' });
    const answers = new MemoryExternalAnswers();
    // The recording's write fails after the settle has been sent beside it (both go at once).
    answers.record = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('recording store unavailable');
    };
    await expect(
      worker({}, sink(), answers).run(director, { question: QUESTION }, { tenantId, runId: online, stepKey: `${online}.scope.0.0` }),
    ).rejects.toThrow('recording store unavailable');
    expect(store.calls.filter((c) => c.runId === online)).toEqual([
      expect.objectContaining({ engine: 'openai', outcome: 'ok', tokensOut: server.counts.completionTokens }),
    ]);
  });

  it("the run's recording is the runner's own port: its answers are recorded there and replayed from it; a runner without one is untouched", async () => {
    const recording = new MemoryExternalAnswers();
    const first = run({ engine: 'openai' });
    const answer = await worker({}, sink(), recording).run(
      director,
      { question: QUESTION },
      { tenantId, runId: first, stepKey: `${first}.scope.0.0` },
    );
    expect(server.counts.chatRequests).toBe(1);
    expect([...recording.answers.keys()]).toEqual([expect.stringMatching(/^model "[0-9a-f]{64}"$/)]);

    // A replay (another run) is answered from the recording: the model is not asked.
    recording.replaying = true;
    const replay = run({ engine: 'openai' });
    const replayed = await worker({}, sink(), recording).run(
      director,
      { question: QUESTION },
      { tenantId, runId: replay, stepKey: `${replay}.scope.0.0` },
    );
    expect(replayed).toEqual(answer);
    expect(server.counts.chatRequests).toBe(1);

    // No process-wide state: a runner built without the port, beside one replaying, goes live and records nothing.
    const live = run({ engine: 'openai' });
    await worker().run(director, { question: QUESTION }, { tenantId, runId: live, stepKey: `${live}.scope.0.0` });
    expect(server.counts.chatRequests).toBe(2);
    expect(recording.answers.size).toBe(1);
  });
});

describe('the budget rule (decided under the run lock, whatever the store)', () => {
  const none = { tokens: 0, costUsd: 0 };
  const estimate = { model: 'm', tokens: 100, costUsd: 0.01 };

  it('refuses once what is spent reaches a budget, naming it', () => {
    expect(decide({ spent: { tokens: 1000, costUsd: 0 }, inFlight: none, anyInFlight: false }, estimate, { tokens: 1000 })).toEqual({
      exhausted: 'tokens',
    });
    expect(
      decide({ spent: { tokens: 0, costUsd: 2 }, inFlight: none, anyInFlight: false }, estimate, { tokens: 10_000, costUsd: 2 }),
    ).toEqual({
      exhausted: 'cost',
    });
  });

  it('waits when the estimate does not fit beside requests in flight; starts when none is in flight', () => {
    const run = { spent: { tokens: 850, costUsd: 0 }, inFlight: { tokens: 100, costUsd: 0 }, anyInFlight: true };
    expect(decide(run, estimate, { tokens: 1000 })).toBe('wait');
    expect(decide({ ...run, inFlight: none, anyInFlight: false }, estimate, { tokens: 1000 })).toBe('reserve');
    expect(decide({ ...run, spent: { tokens: 700, costUsd: 0 } }, estimate, { tokens: 1000 })).toBe('reserve');
  });
});

import { z } from 'zod';
import { UnrecoverableError, classifyError } from '@dossier/errors';
import { AgentRunner } from '../../src/agent-runner';
import type { Engine, EngineCompletion } from '../../src/engine/engine';
import { countWords, OFFLINE_MODEL, OfflineEngine } from '../../src/engine/offline-engine';
import { AgentCallRecordError, AgentInputError, AgentOutputError } from '../../src/errors';
import { director } from '../../src/roles';
import type { AgentRole } from '../../src/roles/role';
import { MemoryAgentStore } from '../fixtures/memory-agent-store';

const CTX = { tenantId: '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b', runId: '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a', stepKey: 'run.scope.0.0' };

type Row = Record<string, unknown>;

/** The in-memory ports; `fail` makes every write throw (a store that is down). */
function memoryStore(fail?: Error): { store: MemoryAgentStore; rows: Row[] } {
  const store = new MemoryAgentStore();
  store.failWith = fail ?? null;
  return { store, rows: store.calls as unknown as Row[] };
}

class FixedEngine implements Engine {
  readonly name = 'fixed';
  readonly model = 'fixed-1';
  readonly calls: string[] = [];
  constructor(private readonly result: () => unknown) {}
  async complete<I, O>(role: AgentRole<I, O>): Promise<EngineCompletion<O>> {
    this.calls.push(role.name);
    return { output: this.result() as O, model: 'fixed-1', tokensIn: 10, tokensOut: 20, costUsd: 0.5 };
  }
}

describe('countWords', () => {
  it('counts whitespace-separated words of the JSON', () => {
    expect(countWords({ question: 'How was the bridge built?' })).toBe(5);
    expect(countWords([])).toBe(1);
    expect(countWords(undefined)).toBe(0);
  });
});

describe('OfflineEngine', () => {
  it('runs the role offline at no cost', async () => {
    const input = { question: 'How was the Golden Gate Bridge built?' };
    const done = await new OfflineEngine().complete(director, input);
    expect(done.output).toEqual(director.offline(input));
    expect(done).toMatchObject({ model: OFFLINE_MODEL, costUsd: 0, tokensIn: countWords(input), tokensOut: countWords(done.output) });
  });
});

describe('AgentRunner (in-memory store)', () => {
  it('returns the validated output and records one ok call', async () => {
    const { store, rows } = memoryStore();
    const runner = new AgentRunner(store, { engine: 'offline' });
    const input = { question: 'What did the Golden Gate Bridge cost in 1937?' };
    const out = await runner.run(director, input, CTX);
    expect(out).toEqual(director.offline(input));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...CTX,
      role: 'director',
      engine: 'offline',
      model: 'offline-nlp-1',
      tokensIn: countWords(input),
      tokensOut: countWords(out),
      costUsd: 0,
      outcome: 'ok',
      error: null,
    });
    expect(rows[0]!['latencyMs']).toEqual(expect.any(Number));
  });

  it('rejects invalid input with an unrecoverable error naming the role and the field, recording nothing', async () => {
    const { store, rows } = memoryStore();
    const runner = new AgentRunner(store, { engine: 'offline' });
    const attempt = runner.run(director, { question: 42 } as never, CTX);
    await expect(attempt).rejects.toBeInstanceOf(AgentInputError);
    await expect(attempt).rejects.toThrow(/Invalid input for agent role director: question: /);
    const err = await attempt.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(classifyError(err)).toBe('unrecoverable');
    expect(rows).toEqual([]);
  });

  it('rejects an invalid call context', async () => {
    const runner = new AgentRunner(memoryStore().store, { engine: 'offline' });
    await expect(runner.run(director, { question: 'Why?' }, { ...CTX, runId: 'not-a-uuid' })).rejects.toThrow(
      /call context for agent role director: runId/,
    );
  });

  it('records and rejects output that breaks the role schema', async () => {
    const { store, rows } = memoryStore();
    const engine = new FixedEngine(() => ({ statement: '' }));
    const runner = new AgentRunner(store, { engine });
    const attempt = runner.run(director, { question: 'Why?' }, CTX);
    await expect(attempt).rejects.toBeInstanceOf(AgentOutputError);
    expect(engine.calls).toEqual(['director']);
    await expect(attempt).rejects.toThrow(/Invalid output from agent role director \(engine fixed\)/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'error', engine: 'fixed', model: 'fixed-1', tokensIn: 10, tokensOut: 20, costUsd: 0.5 });
    expect(String(rows[0]!['error'])).toMatch(/^AgentOutputError: Invalid output/);
  });

  it('records an engine failure and rethrows the same error', async () => {
    const { store, rows } = memoryStore();
    const boom = new Error('provider timed out');
    const runner = new AgentRunner(store, {
      engine: new FixedEngine(() => {
        throw boom;
      }),
    });
    const input = { question: 'Why?' };
    await expect(runner.run(director, input, CTX)).rejects.toBe(boom);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'error',
        error: 'Error: provider timed out',
        tokensIn: countWords(input),
        tokensOut: 0,
        model: 'fixed-1',
      }),
    ]);
  });

  it('raises a retryable error keeping both causes when the failure cannot be recorded', async () => {
    const dbDown = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { store } = memoryStore(dbDown);
    const runner = new AgentRunner(store, {
      engine: new FixedEngine(() => {
        throw new Error('role broke');
      }),
    });
    const err = await runner.run(director, { question: 'Why?' }, CTX).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentCallRecordError);
    expect(classifyError(err)).toBe('retryable');
    expect((err as AgentCallRecordError).cause).toBe(dbDown);
    expect((err as AgentCallRecordError).details).toMatchObject({ role: 'director', roleError: { message: 'role broke' } });
  });

  it('lets a recording failure after a successful call propagate unchanged', async () => {
    const dbDown = new Error('db down');
    const runner = new AgentRunner(memoryStore(dbDown).store, { engine: 'offline' });
    await expect(runner.run(director, { question: 'Why?' }, CTX)).rejects.toBe(dbDown);
  });

  it('returns the parsed output (schema transforms apply)', async () => {
    const role: AgentRole<{ n: number }, { n: number }> = {
      name: 'director',
      temperature: 0,
      input: z.strictObject({ n: z.number() }),
      output: z.strictObject({ n: z.number().transform((x) => x * 2) }) as unknown as z.ZodType<{ n: number }>,
      prompt: () => ({ system: '', user: '' }),
      offline: (i) => i,
    };
    const runner = new AgentRunner(memoryStore().store, { engine: 'offline' });
    await expect(runner.run(role, { n: 2 }, CTX)).resolves.toEqual({ n: 4 });
    expect(runner.engineName).toBe('offline');
  });
});

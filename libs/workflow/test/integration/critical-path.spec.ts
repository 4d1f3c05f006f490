import { sql, type TestDatabase } from '@dossier/testing';
import { runCriticalPath, stepDependencies } from '@dossier/db';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';

/**
 * The critical path of a run's model calls, read from stored rows (outbox and llm_calls) on real Postgres, over a
 * constructed step graph: serial and overlapping calls within a step, a fan-out whose join was decided by a shard
 * that was not the slowest, a shard loop (turns) before a join, a step decided by a person's gate, and an
 * offline-engine row that is CPU, not model time. Correctness only: the timings are written, not measured.
 */
describe('runCriticalPath (real Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  let runId: string;
  const T0 = Date.parse('2026-01-01T10:00:00.000Z');

  async function step(key: string, cause: string): Promise<void> {
    const [node, iteration, shard] = key.split('.');
    await sql(
      db.url,
      `INSERT INTO outbox (tenant_id, run_id, step_key, cause_key, node, iteration, shard, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, '{}'::jsonb) ON CONFLICT (step_key) DO UPDATE SET cause_key = EXCLUDED.cause_key`,
      [
        TENANT,
        runId,
        `${runId}.${key}`,
        cause === 'start' || cause.startsWith('gate:') ? cause : `${runId}.${cause}`,
        node,
        Number(iteration),
        Number(shard),
      ],
    );
  }

  async function call(stepKey: string, atMs: number, latencyMs: number, engineName = 'openai'): Promise<void> {
    await sql(
      db.url,
      `INSERT INTO llm_calls (id, tenant_id, run_id, step_key, role, engine, model, tokens_in, tokens_out, cost_usd, latency_ms, outcome, created_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'r', $4, 'm', 1, 1, 0, $5, 'ok', $6)`,
      [TENANT, runId, `${runId}.${stepKey}`, engineName, latencyMs, new Date(T0 + atMs)],
    );
  }

  beforeAll(async () => {
    db = await prepareDatabase();
    engine = await startEngine(db, uniquePrefix('cpath'), []);
    runId = (await engine.commands.start({ tenantId: TENANT, question: 'critical path', actor: 'test' })).id;
    await sql(db.url, 'UPDATE research_runs SET created_at = $2, completed_at = $3 WHERE id = $1', [
      runId,
      new Date(T0),
      new Date(T0 + 3_000),
    ]);
    // scope.0.0 was decided by 'start' when the run began; the rest of the graph hangs below it.
    await step('scope.0.0', 'start');
    await call('scope.0.0', 0, 100);
    await step('search_plan.0.0', 'scope.0.0');
    // Two calls one after the other (the second sent after the first answered): a chain of 500 ms.
    await call('search_plan.0.0', 200, 300);
    await call('search_plan.0.0', 600, 200);
    // A fan-out of three shards; the middle one finished last and decided the join, but shard 0 took longest.
    for (const shard of [0, 1, 2]) await step(`extract.0.${shard}`, 'search_plan.0.0');
    await call('extract.0.0', 900, 1_000);
    // Two overlapping calls of one step are independent: 450, not 850.
    await call('extract.0.1', 900, 400);
    await call('extract.0.1', 950, 450);
    await call('extract.0.2', 900, 700);
    // The offline engine's CPU time is not model time, however long.
    await call('extract.0.2', 1_700, 9_000, 'offline');
    await step('claims.0.0', 'extract.0.1');
    await call('claims.0.0', 2_000, 250);
    // Interviews: two shards, shard 0 with two turns (turn 1 decided by turn 0); shard 1 finished last and decided outline.
    await step('interview.0.0', 'claims.0.0');
    await step('interview.0.1', 'claims.0.0');
    await step('interview.1.0', 'interview.0.0');
    await call('interview.0.0', 2_300, 300);
    await call('interview.0.1', 2_300, 100);
    await call('interview.1.0', 2_650, 300);
    await step('outline.0.0', 'interview.0.1');
    await call('outline.0.0', 2_960, 50);
    // A step decided by a person at a gate begins a chain of its own.
    await step('draft.0.0', 'gate:outline:0');
    await call('draft.0.0', 60_000, 2_400);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('a join waits for every shard of its fan-out and every turn of a shard loop; a gate decided by a person begins a chain', async () => {
    const rows = await sql<{ step_key: string; cause_key: string; node: string }>(
      db.url,
      'SELECT step_key, cause_key, node FROM outbox WHERE run_id = $1',
      [runId],
    );
    const deps = stepDependencies(rows.map((r) => ({ stepKey: r.step_key, causeKey: r.cause_key, node: r.node })));
    const of = (key: string) => [...(deps.get(`${runId}.${key}`) ?? [])].map((k) => k.slice(runId.length + 1)).sort();
    expect(of('claims.0.0')).toEqual(['extract.0.0', 'extract.0.1', 'extract.0.2']);
    expect(of('outline.0.0')).toEqual(['interview.0.0', 'interview.0.1', 'interview.1.0']);
    expect(of('interview.1.0')).toEqual(['interview.0.0']);
    expect(of('extract.0.2')).toEqual(['search_plan.0.0']);
    expect(of('scope.0.0')).toEqual([]);
    expect(of('draft.0.0')).toEqual([]);
  });

  it('sums model latency along the longest chain of dependent calls', async () => {
    const path = await runCriticalPath(engine!.prisma, TENANT, runId);
    // scope 100 → search_plan 300 + 200 → extract shard 0 1000 → claims 250 → interview turns 300 + 300 → outline 50.
    expect(path.lengthMs).toBe(2_500);
    expect(path.calls.map((c) => `${c.stepKey.slice(runId.length + 1)} ${c.latencyMs}`)).toEqual([
      'scope.0.0 100',
      'search_plan.0.0 300',
      'search_plan.0.0 200',
      'extract.0.0 1000',
      'claims.0.0 250',
      'interview.0.0 300',
      'interview.1.0 300',
      'outline.0.0 50',
    ]);
    expect(path.wallMs).toBe(3_000);
    expect(path.modelCalls).toBe(13);
  });

  it('names a run that does not exist', async () => {
    await expect(runCriticalPath(engine!.prisma, TENANT, '00000000-0000-4000-8000-00000000dead')).rejects.toMatchObject({
      code: 'run_not_found',
    });
  });
});

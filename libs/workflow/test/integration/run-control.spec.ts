import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

describe('run control: cancel, resume, gate expiry, wall-time deadline (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-')), 'invocations.log');

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_LOG'] = log;
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 2, slow: { '.extract.0.': 400 } });
    engine = await startEngine(db, uniquePrefix('control'));
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('a cancelled run takes no more steps; resumed, it completes without running a completed step again', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'cancel me', options: { maxIterations: 1 }, actor: 'test' });
    await waitFor('extract to start', () => readFileSync(log, 'utf8').includes(`${run.id}.extract.0.`));
    await engine!.commands.cancel(TENANT, run.id, 'changed my mind', 'tester');
    expect((await runStatus(db.url, run.id)).status).toBe('cancelled');
    // In-flight steps finish and commit, but nothing after them is enqueued while cancelled.
    await new Promise((r) => setTimeout(r, 1500));
    const frozen = await completedSteps(db.url, run.id);
    expect(frozen.some((k) => k.includes('.claims.'))).toBe(false);
    await expect(engine!.commands.cancel(TENANT, run.id, 'again', 'tester')).resolves.toBeUndefined();

    await engine!.commands.resume(TENANT, run.id, 'tester');
    await waitForStatus(db.url, run.id, 'completed');
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.includes(run.id));
    const counts = new Map<string, number>();
    for (const l of lines) counts.set(l.split(' ')[2]!, (counts.get(l.split(' ')[2]!) ?? 0) + 1);
    expect(frozen.filter((k) => counts.get(k) !== 1)).toEqual([]);
    const outputs = await outputsByStep(db.url);
    expect((await completedSteps(db.url, run.id)).every((k) => outputs.get(k) === 1)).toBe(true);
    const kinds = await sql<{ kind: string }>(db.url, 'SELECT kind FROM audit_events WHERE run_id = $1 ORDER BY seq', [run.id]);
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['run_created', 'run_cancelled', 'run_resumed', 'run_completed']));
    await expect(engine!.commands.resume(TENANT, run.id, 'tester')).rejects.toThrow(/only a failed or cancelled run can be resumed/);
  });

  it('an open gate nobody decides in time cancels the run, with the reason', async () => {
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'expire',
      options: { gates: { plan: 'required', outline: 'auto', publish: 'auto' }, gateTimeoutMs: 200 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'awaiting_approval');
    await new Promise((r) => setTimeout(r, 300));
    expect(await engine!.expiry.expireGates()).toBe(1);
    const status = await runStatus(db.url, run.id);
    expect(status).toMatchObject({ status: 'cancelled', failure_reason: 'gate plan expired without a decision' });
    await expect(engine!.commands.decideGate(TENANT, run.id, 'plan', { decision: 'approve' }, 'late')).rejects.toThrow(/not open/);
  });

  it('a run past its wall-time budget stops research at the next loop boundary, and says which budget', async () => {
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 1, sources: 1, sections: 1, slow: { '.search_plan.0.': 800 } });
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'deadline',
      options: { maxIterations: 5, budgets: { wallTimeMs: 300 } },
      actor: 'test',
    });
    await waitFor('the deadline to pass', async () => (await engine!.expiry.expireDeadlines()) > 0 || undefined);
    await waitForStatus(db.url, run.id, 'completed');
    expect((await runStatus(db.url, run.id)).stop_reason).toBe('budget_exhausted');
    expect((await completedSteps(db.url, run.id)).filter((k) => k.includes('.moderate.'))).toHaveLength(1);
    const events = await sql<{ type: string }>(db.url, "SELECT type FROM run_events WHERE run_id = $1 AND type = 'budget_exhausted'", [
      run.id,
    ]);
    expect(events).toHaveLength(1);
  });
});

import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NODE_NAMES } from '@dossier/contracts';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, eventSeqs, outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

describe('a run driven by test handlers (real Redis and Postgres, engine in this process)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-')), 'invocations.log');

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_LOG'] = log;
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 5, sources: 2, sections: 3, gains: [0.9, 0.8, 0.7], failing: [2, 1, 0] });
    engine = await startEngine(db, uniquePrefix('complete'));
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('passes through every node to render; fan-outs join exactly once; the loop ends after 3 iterations', async () => {
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'Does it work?',
      options: { maxIterations: 3, maxRepairRounds: 2 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'completed');

    const steps = await completedSteps(db.url, run.id);
    const nodes = new Set(steps.map((k) => k.split('.')[1]));
    // A survey run: every node but the interviews.
    expect([...NODE_NAMES].filter((n) => n !== 'interview' && !nodes.has(n))).toEqual([]);

    // Three research iterations, each with a fan-out of 5 retrieve shards joined into one source_policy.
    for (const it of [0, 1, 2]) {
      expect(steps.filter((k) => k.includes(`.retrieve.${it}.`))).toHaveLength(5);
      expect(steps.filter((k) => k.includes(`.source_policy.${it}.`))).toHaveLength(1);
      expect(steps.filter((k) => k.includes(`.extract.${it}.`))).toHaveLength(2);
    }
    expect(steps.filter((k) => k.includes('.search_plan.3.'))).toHaveLength(0);
    expect((await runStatus(db.url, run.id)).stop_reason).toBe('max_iterations');

    // Repair loop: verify failing 2 → repair 0 → verify 1 failing 1 → repair 1 → verify 2 clean → frame.
    expect(steps.filter((k) => k.includes('.repair.'))).toEqual([`${run.id}.repair.0.0`, `${run.id}.repair.1.0`]);
    expect(steps.filter((k) => k.includes('.verify.2.'))).toHaveLength(3);

    // Each join's successor was decided once (unique outbox key) and ran once.
    const outbox = await sql<{ step_key: string }>(db.url, "SELECT step_key FROM outbox WHERE run_id = $1 AND node = 'source_policy'", [
      run.id,
    ]);
    expect(outbox).toHaveLength(3);

    // Outputs exactly once per step, and every handler ran exactly once.
    const outputs = await outputsByStep(db.url);
    expect(steps.every((k) => outputs.get(k) === 1)).toBe(true);
    const invocations = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[2]!)
      .filter((k) => k.startsWith(run.id));
    expect(invocations.length).toBe(steps.length);
    expect(new Set(invocations).size).toBe(steps.length);

    // Events: contiguous sequence; audit chain verifies.
    const seqs = await eventSeqs(db.url, run.id);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toMatchObject({ ok: true });
  });

  it('stops the loop on low information gain when that comes first', async () => {
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 1, sources: 1, sections: 1, gains: [0.9, 0.05, 0.9] });
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'Gain?',
      options: { maxIterations: 5, minInformationGain: 0.1 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'completed');
    const steps = await completedSteps(db.url, run.id);
    expect(steps.filter((k) => k.includes('.moderate.'))).toHaveLength(2);
    expect((await runStatus(db.url, run.id)).stop_reason).toBe('low_information_gain');
  });
});

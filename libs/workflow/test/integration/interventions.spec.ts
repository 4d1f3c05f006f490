import { RunNotFoundError, RunStateError, ValidationError } from '@dossier/errors';
import type { InterventionInput } from '@dossier/contracts';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { waitForStatus } from '../fixtures/run-queries';

const OTHER_TENANT = '00000000-0000-4000-8000-000000000002';
const PLAN_GATE = { gates: { plan: 'required', outline: 'auto', publish: 'auto' } } as const;

/**
 * The command side of interventions (queue, list, refuse), with the workflow's test handlers: their
 * `moderate` applies nothing, so what was queued is discarded when research ends. The application by the
 * real `moderate` node is tested end to end in apps/cli/test/interventions.spec.ts.
 */
describe('run interventions: queue, list, refuse, discard (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;

  beforeAll(async () => {
    db = await prepareDatabase();
    await sql(db.url, `INSERT INTO tenants (id, name) VALUES ('${OTHER_TENANT}', 'other')`);
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 1, sources: 1, sections: 1 });
    engine = await startEngine(db, uniquePrefix('interv'));
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('queued at the plan gate: pending views, one event and one audit row each; another tenant sees no run; bad input is refused', async () => {
    const commands = engine!.commands;
    const run = await commands.start({
      tenantId: TENANT,
      question: 'intervene at the plan gate',
      options: { ...PLAN_GATE, maxIterations: 1 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'awaiting_approval');

    const inputs: InterventionInput[] = [
      { type: 'add_question', question: '  What did the regulator say?  ' },
      { type: 'exclude_domain', domain: 'Blog.Example.COM' },
      { type: 'narrow_scope', scope: 'Only the years 2015 to 2024' },
    ];
    const queued = [];
    for (const input of inputs) queued.push(await commands.intervene(TENANT, run.id, input, 'alice'));
    expect(queued.map((q) => q.input)).toEqual([
      { type: 'add_question', question: 'What did the regulator say?' },
      { type: 'exclude_domain', domain: 'blog.example.com' },
      { type: 'narrow_scope', scope: 'Only the years 2015 to 2024' },
    ]);
    expect(
      queued.every(
        (q) =>
          q.status === 'pending' && q.createdBy === 'alice' && q.appliedIteration === null && q.appliedAt === null && q.runId === run.id,
      ),
    ).toBe(true);
    expect(await commands.listInterventions(TENANT, run.id)).toEqual(queued);

    await expect(commands.intervene(OTHER_TENANT, run.id, inputs[0]!, 'mallory')).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(commands.listInterventions(OTHER_TENANT, run.id)).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(commands.intervene(TENANT, '00000000-0000-4000-8000-00000000dead', inputs[0]!, 'alice')).rejects.toBeInstanceOf(
      RunNotFoundError,
    );
    for (const bad of [
      { type: 'exclude_domain', domain: 'https://example.com/path' },
      { type: 'exclude_source', sourceId: 'not-a-uuid' },
      { type: 'add_question', question: 'x' },
      { type: 'drop_everything' },
      { type: 'narrow_scope', scope: 'fine', extra: true },
      // A well-formed id that names no source of this run.
      { type: 'exclude_source', sourceId: '00000000-0000-4000-8000-00000000beef' },
    ]) {
      await expect(commands.intervene(TENANT, run.id, bad as InterventionInput, 'alice')).rejects.toBeInstanceOf(ValidationError);
    }
    expect(await commands.listInterventions(TENANT, run.id)).toHaveLength(3);

    const events = await sql<{ data: { interventionId: string; intervention: string } }>(
      db.url,
      "SELECT data FROM run_events WHERE run_id = $1 AND type = 'intervention_queued' ORDER BY seq",
      [run.id],
    );
    expect(events.map((e) => [e.data.interventionId, e.data.intervention])).toEqual(queued.map((q) => [q.id, q.input.type]));
    const audit = await sql<{ actor: string; payload: string }>(
      db.url,
      "SELECT actor, payload FROM audit_events WHERE run_id = $1 AND kind = 'intervention_queued' ORDER BY seq",
      [run.id],
    );
    expect(audit.map((a) => a.actor)).toEqual(['alice', 'alice', 'alice']);
    expect(audit.map((a) => JSON.parse(a.payload) as unknown)).toEqual(queued.map((q) => ({ interventionId: q.id, input: q.input })));
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toMatchObject({ ok: true });

    // These test handlers apply nothing at `moderate`: when research stops, what is still pending is discarded, visibly.
    await commands.decideGate(TENANT, run.id, 'plan', { decision: 'approve' }, 'alice');
    await waitForStatus(db.url, run.id, 'completed');
    const after = await commands.listInterventions(TENANT, run.id);
    expect(after.map((i) => i.status)).toEqual(['discarded', 'discarded', 'discarded']);
    const discarded = await sql<{ kind: string; payload: string }>(
      db.url,
      "SELECT kind, payload FROM audit_events WHERE run_id = $1 AND kind IN ('research_stopped', 'intervention_discarded') ORDER BY seq",
      [run.id],
    );
    expect(discarded.map((d) => d.kind)).toEqual([
      'research_stopped',
      'intervention_discarded',
      'intervention_discarded',
      'intervention_discarded',
    ]);
    expect(JSON.parse(discarded[1]!.payload)).toMatchObject({
      interventionId: queued[0]!.id,
      reason: 'research ended (max iterations) before a loop boundary could apply it',
    });
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toMatchObject({ ok: true });

    await expect(commands.intervene(TENANT, run.id, inputs[0]!, 'alice')).rejects.toThrow(RunStateError);
    await expect(commands.intervene(TENANT, run.id, inputs[0]!, 'alice')).rejects.toThrow(
      /is completed; interventions apply only to a run that is still researching/,
    );
  });

  it('once research has ended (waiting at the outline gate) an intervention is refused, saying why', async () => {
    const commands = engine!.commands;
    const run = await commands.start({
      tenantId: TENANT,
      question: 'intervene while writing',
      options: { gates: { plan: 'auto', outline: 'required', publish: 'auto' }, maxIterations: 1 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'awaiting_approval');
    const err = await commands
      .intervene(TENANT, run.id, { type: 'exclude_domain', domain: 'example.com' }, 'alice')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunStateError);
    expect((err as Error).message).toMatch(
      /has finished researching \(max iterations\) and is writing its report; an intervention can no longer be applied/,
    );
    expect(await commands.listInterventions(TENANT, run.id)).toEqual([]);
    await commands.cancel(TENANT, run.id, 'done', 'test');
    await expect(commands.intervene(TENANT, run.id, { type: 'narrow_scope', scope: 'anything' }, 'alice')).rejects.toThrow(/is cancelled/);
  });
});

import { z } from 'zod';
import { NODES, type StepJob } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { sql, type TestDatabase } from '@dossier/testing';
import {
  OnStep,
  WORKFLOW_V1,
  WORKFLOW_V2,
  WorkflowGraphs,
  graphsOver,
  type TableStepContext,
  type TableStepHandler,
  type TableStepOutcome,
} from '../../src';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, outputsByStep, runStatus, waitForStatus } from '../fixtures/run-queries';

/*
 * Adding a node is one table row, edges in a new graph version and a handler: here the row is an extension
 * of the core table local to this test (libs/contracts is not touched), and the engine is the real one.
 */

/** The row. */
const TEST_NODES = NODES.extend({
  annotate: {
    label: 'Test annotate',
    phase: 'research',
    description: 'a test node',
    service: 'claims',
    fanout: true,
    roles: [],
    result: z.strictObject({ notes: z.int().min(0) }),
  },
});
type TestRows = (typeof TEST_NODES)['rows'];

/** The edges: version 3 is the code base's version 2 with `annotate` fanned out over the outline's sections before drafting. */
const { fanout, defineGraph, nodesOf } = graphsOver(TEST_NODES);
const WORKFLOW_V3 = defineGraph({
  version: 3,
  start: WORKFLOW_V2.start,
  nodes: {
    ...nodesOf(WORKFLOW_V2),
    outline: {
      then: {
        kind: 'gate',
        gate: 'outline',
        approve: fanout('annotate', 'reset', 'outline', 'sections'),
        reject: { to: 'outline', iteration: 'next' },
      },
    },
    annotate: { then: fanout('draft', 'same', 'outline', 'sections') },
  },
});

/** The handler: its job and result types come from the row (`notes`, shard a number because it fans out). */
@OnStep('annotate', TEST_NODES)
class AnnotateHandler implements TableStepHandler<TestRows, 'annotate'> {
  execute(ctx: TableStepContext<TestRows, 'annotate'>): Promise<TableStepOutcome<TestRows, 'annotate'>> {
    return Promise.resolve({
      result: { notes: ctx.job.shard + 1 },
      write: async (tx) => {
        await tx.$executeRaw`INSERT INTO test_outputs (step_key, pid, note) VALUES (${ctx.stepKey}, ${process.pid}, ${ctx.call.runId})`;
      },
    });
  }
}

const PLAN_REQUIRED = { gates: { plan: 'required', outline: 'auto', publish: 'auto' } } as const;

describe('adding a node: one table row, a graph version, a handler (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let before: TestEngine | undefined;
  let after: TestEngine | undefined;

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 3, gains: [0.9], openQuestions: 0 });
  });
  afterAll(async () => {
    await before?.close();
    await after?.close();
    await db?.drop();
  });

  it('runs the new node on the new version, and a run started on the previous version finishes on it', async () => {
    // The deployment before the node existed: the core table and its versions (1 and 2, new runs on 2).
    const prefix = uniquePrefix('add-node');
    before = await startEngine(db, prefix);
    const old = await before.commands.start({ tenantId: TENANT, question: 'Started on v1?', options: PLAN_REQUIRED, actor: 'test' });
    await waitForStatus(db.url, old.id, 'awaiting_approval');
    expect(old.workflowVersion).toBe(2);
    await before.close();
    before = undefined;

    // The deployment with the node: the extended table, versions 1, 2 and 3, new runs on 3.
    after = await startEngine(db, prefix, undefined, {
      workflows: new WorkflowGraphs(TEST_NODES, [WORKFLOW_V1, WORKFLOW_V2, WORKFLOW_V3]),
      handlers: [AnnotateHandler],
    });
    const fresh = await after.commands.start({ tenantId: TENANT, question: 'Started on v2?', options: PLAN_REQUIRED, actor: 'test' });
    expect(fresh.workflowVersion).toBe(3);
    for (const run of [old, fresh]) {
      await waitForStatus(db.url, run.id, 'awaiting_approval');
      await after.commands.decideGate(TENANT, run.id, 'plan', { decision: 'approve' }, 'test');
    }
    await waitForStatus(db.url, fresh.id, 'completed');
    await waitForStatus(db.url, old.id, 'completed');

    // Version 2: one annotate shard per section, joined once into the draft fan-out.
    const v2 = await completedSteps(db.url, fresh.id);
    expect(v2.filter((k) => k.includes('.annotate.'))).toEqual([0, 1, 2].map((s) => `${fresh.id}.annotate.0.${s}`));
    expect(v2.filter((k) => k.includes('.draft.'))).toHaveLength(3);
    expect(v2.some((k) => k.includes('.render.'))).toBe(true);
    const [draftDecided] = await sql<{ cause_key: string }>(
      db.url,
      "SELECT DISTINCT cause_key FROM outbox WHERE run_id = $1 AND node = 'draft'",
      [fresh.id],
    );
    expect(draftDecided?.cause_key).toMatch(new RegExp(`^${fresh.id}\\.annotate\\.0\\.[0-2]$`));
    const outputs = await outputsByStep(db.url);
    for (const s of [0, 1, 2]) expect(outputs.get(`${fresh.id}.annotate.0.${s}`)).toBe(1);

    // Version 1, finished by the new deployment: the new node never ran.
    const v1 = await completedSteps(db.url, old.id);
    expect(v1.filter((k) => k.includes('.annotate.'))).toEqual([]);
    expect(v1.filter((k) => k.includes('.draft.'))).toHaveLength(3);
    expect(v1.some((k) => k.includes('.render.'))).toBe(true);
    const [stored] = await sql<{ workflow_version: number }>(db.url, 'SELECT workflow_version FROM research_runs WHERE id = $1', [old.id]);
    expect(stored?.workflow_version).toBe(2);
  });

  it('a step of a node its run version does not use fails that run with a typed error, and the worker goes on', async () => {
    const run = await after!.commands.start({ tenantId: TENANT, question: 'Stray step?', options: PLAN_REQUIRED, actor: 'test' });
    await waitForStatus(db.url, run.id, 'awaiting_approval');
    // A v1 run, as a previous deployment would have left it; then a job of the v2-only node arrives for it.
    await sql(db.url, 'UPDATE research_runs SET workflow_version = 1 WHERE id = $1', [run.id]);
    const stray = TEST_NODES.stepJob.parse({ tenantId: TENANT, runId: run.id, node: 'annotate', iteration: 0, shard: 0 });
    await after!.app.get(StepQueues).enqueue(stray as unknown as StepJob);
    await waitForStatus(db.url, run.id, 'failed');
    const status = await runStatus(db.url, run.id);
    expect(status.failure_reason).toContain('Node annotate is not in workflow version 1');
    const [event] = await sql<{ data: { code: string; node: string } }>(
      db.url,
      "SELECT data FROM run_events WHERE run_id = $1 AND type = 'run_failed'",
      [run.id],
    );
    expect(event?.data).toMatchObject({ code: 'node_not_in_graph', node: 'annotate' });
    expect((await completedSteps(db.url, run.id)).some((k) => k.includes('.annotate.'))).toBe(false);

    // The worker still serves other runs.
    const next = await after!.commands.start({ tenantId: TENANT, question: 'Still working?', options: PLAN_REQUIRED, actor: 'test' });
    await waitForStatus(db.url, next.id, 'awaiting_approval');
  });
});

import { stepKey, type NodeName } from '@dossier/contracts';
import { INTERNAL_ERROR_MESSAGE, StageStateError, TRANSIENT_ERROR_MESSAGE } from '@dossier/errors';
import type { JobControl } from '@dossier/queue';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { runStatus } from '../fixtures/run-queries';

function control(attempt: number, maxAttempts: number): JobControl {
  return { attempt, maxAttempts, postpone: async () => new Error('postponed') };
}

/** A handler for `node` that throws `err`. */
function throwing(node: NodeName, err: unknown): Map<NodeName, object> {
  return new Map([
    [
      node,
      {
        execute: async () => {
          throw err;
        },
      },
    ],
  ]);
}

/**
 * Security review: a step that failed on an internal error (a Prisma error quoting its query, with an
 * `Invalid Date` in it) showed the tenant that raw text as the run's failure reason. The tenant reads a reason
 * code and a clean message; the internal text stays with the operator (the step's record and the log).
 */
describe('what a tenant reads about a failed step (real Redis and Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;

  beforeAll(async () => {
    db = await prepareDatabase();
    engine = await startEngine(db, uniquePrefix('reasons'), []);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  const events = async (runId: string) =>
    sql<{ type: string; data: { error?: string; code?: string } }>(
      db.url,
      'SELECT type, data FROM run_events WHERE run_id = $1 ORDER BY seq',
      [runId],
    );

  it('an internal error: the run fails with a reason code and a fixed message; the query text is only in the step record', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'internal', actor: 'test' });
    const payload = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 };
    const dump = Object.assign(
      new Error(
        'Invalid `prisma.approvalDecision.create()` invocation:\n{ data: { expiresAt: new Date("Invalid Date") } }\nValue out of range',
      ),
      { code: 'P2007' },
    );
    await expect(engine!.runner.process(payload, throwing('scope', dump), control(1, 3))).rejects.toBe(dump);

    const status = await runStatus(db.url, run.id);
    expect(status).toMatchObject({ status: 'failed', failure_reason: `scope: ${INTERNAL_ERROR_MESSAGE} (internal_error)` });
    const failed = (await events(run.id)).find((e) => e.type === 'run_failed');
    expect(failed?.data).toEqual({ type: 'run_failed', node: 'scope', error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' });
    const audit = await sql<{ payload: string }>(db.url, "SELECT payload FROM audit_events WHERE run_id = $1 AND kind = 'run_failed'", [
      run.id,
    ]);
    expect(audit[0]!.payload).not.toContain('prisma');
    const [execution] = await sql<{ error: string }>(db.url, 'SELECT error FROM node_executions WHERE step_key = $1', [
      stepKey(payload as never),
    ]);
    expect(execution!.error).toContain('Invalid `prisma.approvalDecision.create()` invocation');
  });

  it('a transient error: the retry event says so without its text; our own errors keep their message', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'transient', actor: 'test' });
    const payload = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 };
    const outage = Object.assign(new Error('connect ECONNREFUSED 10.0.4.17:5432'), { code: 'ECONNREFUSED' });
    await expect(engine!.runner.process(payload, throwing('scope', outage), control(1, 3))).rejects.toBe(outage);
    const retrying = (await events(run.id)).find((e) => e.type === 'step_retrying');
    expect(retrying?.data.error).toBe(TRANSIENT_ERROR_MESSAGE);

    const ours = new StageStateError('The plan has no perspectives to research');
    await expect(engine!.runner.process(payload, throwing('scope', ours), control(2, 3))).rejects.toBe(ours);
    expect((await runStatus(db.url, run.id)).failure_reason).toBe('scope: The plan has no perspectives to research (stage_state_invalid)');
  });
});

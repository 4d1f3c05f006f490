import { stepKey } from '@dossier/contracts';
import { INTERNAL_ERROR_MESSAGE, StageStateError, TRANSIENT_ERROR_MESSAGE } from '@dossier/errors';
import { sql, type TestDatabase } from '@dossier/testing';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '../../src';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { runStatus, waitForStatus } from '../fixtures/run-queries';

/** What the scope handler throws, by run question and attempt (set by each test). */
const throws = new Map<string, (attempt: number) => unknown>();

/** The scope handler of these tests: it throws what the test chose for its run. */
@OnStep('scope')
class ThrowingScope implements StepHandler<'scope'> {
  execute(ctx: StepContext<'scope'>): Promise<StepOutcome<'scope'>> {
    const err = throws.get(ctx.run.question)?.(ctx.attempt);
    return Promise.reject(err instanceof Error ? err : new Error(`no error chosen for ${ctx.run.question}`));
  }
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
    // Steps go through the transport to the scope handler above (the test handler of scope is left out).
    process.env['TEST_OMIT_HANDLERS'] = 'scope';
    engine = await startEngine(db, uniquePrefix('reasons'), ['planner'], { handlers: [ThrowingScope] });
  });
  afterAll(async () => {
    delete process.env['TEST_OMIT_HANDLERS'];
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
    const dump = Object.assign(
      new Error(
        'Invalid `prisma.approvalDecision.create()` invocation:\n{ data: { expiresAt: new Date("Invalid Date") } }\nValue out of range',
      ),
      { code: 'P2007' },
    );
    throws.set('internal', () => dump);
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'internal', actor: 'test' });
    const payload = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 0 };
    await waitForStatus(db.url, run.id, 'failed');

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
    // The first attempt meets a database outage (retried), the second one of our own errors (final).
    const outage = Object.assign(new Error('connect ECONNREFUSED 10.0.4.17:5432'), { code: 'ECONNREFUSED' });
    const ours = new StageStateError('The plan has no perspectives to research');
    throws.set('transient', (attempt) => (attempt === 1 ? outage : ours));
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'transient', actor: 'test' });
    await waitForStatus(db.url, run.id, 'failed');
    const retrying = (await events(run.id)).filter((e) => e.type === 'step_retrying');
    expect(retrying.map((e) => e.data.error)).toEqual([TRANSIENT_ERROR_MESSAGE]);
    expect((await runStatus(db.url, run.id)).failure_reason).toBe('scope: The plan has no perspectives to research (stage_state_invalid)');
  });
});

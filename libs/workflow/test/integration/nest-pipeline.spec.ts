import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { Queue } from 'bullmq';
import { tap, type Observable } from 'rxjs';
import { SERVICE_NAMES } from '@dossier/contracts';
import { classifyError, DossierError, InvalidStepPayloadError } from '@dossier/errors';
import type { StepRpcContext } from '@dossier/queue';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';
import { STEP_METHOD } from '../../src';
import { prepareDatabase, REDIS_URL, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, runStatus, waitForStatus } from '../fixtures/run-queries';

interface Seen {
  type: string;
  pattern: string;
  jobId: string | undefined;
  handlerClass: string;
  method: string;
  attempt: number;
}

/** A global interceptor, as an operator would add one: it records every step Nest dispatches, and what each threw. */
class RecordingInterceptor implements NestInterceptor {
  readonly seen: Seen[] = [];
  readonly errors: unknown[] = [];

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const step = context.switchToRpc().getContext<StepRpcContext>();
    this.seen.push({
      type: context.getType(),
      pattern: step.job.name,
      jobId: step.job.id,
      handlerClass: context.getClass().name,
      method: context.getHandler().name,
      attempt: step.control.attempt,
    });
    return next.handle().pipe(tap({ error: (err: unknown) => this.errors.push(err) }));
  }
}

/**
 * The stage services as Nest microservices (decision 0035): every step goes through Nest's pipeline on the BullMQ
 * transport, so an interceptor sees each one, and the job pipe's zod check is a classified step failure.
 */
describe('steps through the Nest pipeline of the BullMQ transport (real Redis and Postgres)', () => {
  let db: TestDatabase;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-')), 'invocations.log');
  const engines: TestEngine[] = [];

  beforeAll(async () => {
    db = await prepareDatabase();
    writeFileSync(log, '');
    process.env['TEST_LOG'] = log;
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 2, sources: 2, sections: 2, gains: [0.9, 0.05] });
  });
  afterAll(async () => {
    for (const e of engines.splice(0)) await e.close();
    await db?.drop();
  });

  it('an interceptor sees every step of a run, as an RPC call of its node handler, once per delivery', async () => {
    const recorder = new RecordingInterceptor();
    const engine = await startEngine(db, uniquePrefix('nest-all'), SERVICE_NAMES, {
      configure: (app) => app.useGlobalInterceptors(recorder),
    });
    engines.push(engine);
    const run = await engine.commands.start({ tenantId: TENANT, question: 'every step seen', actor: 'test' });
    await waitForStatus(db.url, run.id, 'completed');

    const steps = await completedSteps(db.url, run.id);
    expect(steps.length).toBeGreaterThan(10);
    const seenKeys = new Set(recorder.seen.map((s) => s.jobId));
    // Every completed step was dispatched through the pipeline under its own step key (the job id).
    expect(steps.filter((k) => !seenKeys.has(k))).toEqual([]);
    for (const s of recorder.seen.filter((x) => x.jobId?.startsWith(run.id))) {
      expect(s.type).toBe('rpc');
      expect(s.method).toBe(STEP_METHOD);
      // The pattern is the node, and the class is that node's test handler.
      expect(s.handlerClass).toBe(`Test_${s.pattern}_Handler`);
      expect(s.jobId?.split('.')[1]).toBe(s.pattern);
    }
    expect(recorder.errors).toEqual([]);
  });

  it("a job the handler's zod pipe refuses fails its run with the reason and run id, unrecoverably, after one attempt", async () => {
    // The run is created on one prefix (its own steps wait there, unconsumed); the bad job arrives on another.
    const producer = await startEngine(db, uniquePrefix('nest-held'), []);
    engines.push(producer);
    const recorder = new RecordingInterceptor();
    const prefix = uniquePrefix('nest-pipe');
    const worker = await startEngine(db, prefix, ['planner'], { configure: (app) => app.useGlobalInterceptors(recorder) });
    engines.push(worker);
    const run = await producer.commands.start({ tenantId: TENANT, question: 'refused by the pipe', actor: 'test' });

    const q = new Queue('planner', { connection: { url: REDIS_URL } as never, prefix });
    try {
      // A well-formed step job except that `scope` is not a fan-out: its only shard is 0.
      const data = { tenantId: TENANT, runId: run.id, node: 'scope', iteration: 0, shard: 2 };
      await q.add('scope', data, { jobId: 'pipe-refused', attempts: 5, backoff: { type: 'classified', delay: 10 } });
      await waitFor('the refused job to fail', async () => (await q.getJobState('pipe-refused')) === 'failed' || undefined);
      const job = (await q.getJob('pipe-refused'))!;
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/Invalid step job: shard/);
    } finally {
      await q.close();
    }

    // The interceptor saw the delivery and the pipe's error: typed, unrecoverable, carrying the run id.
    expect(recorder.seen.map((s) => [s.pattern, s.jobId, s.attempt])).toEqual([['scope', 'pipe-refused', 1]]);
    expect(recorder.errors).toHaveLength(1);
    const err = recorder.errors[0];
    expect(err).toBeInstanceOf(InvalidStepPayloadError);
    expect(classifyError(err)).toBe('unrecoverable');
    expect((err as DossierError).runId).toBe(run.id);

    // The error filter failed the run with the node and the reason code; the handler never ran.
    const status = await runStatus(db.url, run.id);
    expect(status.status).toBe('failed');
    expect(status.failure_reason).toMatch(/^scope: Invalid step job: shard.*\(step_payload_invalid\)$/);
    const events = await sql<{ type: string }>(db.url, "SELECT type FROM run_events WHERE run_id = $1 AND type = 'run_failed'", [run.id]);
    expect(events).toHaveLength(1);
    expect(readFileSync(log, 'utf8')).not.toContain(`${run.id}.scope`);
  });
});

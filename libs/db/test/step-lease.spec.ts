import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { StepJob } from '@dossier/contracts';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { ExecutionRepository, LIVENESS_NAMESPACE, PrismaService } from '../src';

const LEASE_MS = 30_000;

/**
 * The step lease in Postgres (docs/decisions/0070): who may start an attempt of a running step, and which attempt may
 * complete it. An owner is alive while some session holds its liveness lock; time passing is simulated by moving the
 * lease's expiry into the past, never by waiting.
 */
describe('ExecutionRepository: step leases (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let executions: ExecutionRepository;
  const sessions: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 3 });
    executions = new ExecutionRepository(prisma);
  });
  afterAll(async () => {
    for (const s of sessions) await s.end().catch(() => undefined);
    await prisma?.$disconnect();
    await db?.drop();
  });

  /** A live owner: a session holding its liveness lock, as WorkerLivenessLocks holds it. */
  async function liveOwner(): Promise<{ owner: string; die: () => Promise<void> }> {
    const owner = `process-${randomUUID()}`;
    const session = new Client({ connectionString: db.url });
    await session.connect();
    sessions.push(session);
    await session.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [LIVENESS_NAMESPACE, owner]);
    return { owner, die: () => session.end() };
  }

  async function newStep(status = 'running'): Promise<{ job: StepJob; key: string; tenantId: string }> {
    const tenantId = randomUUID();
    const runId = randomUUID();
    await sql(db.url, 'INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, `t-${tenantId}`]);
    await sql(
      db.url,
      `INSERT INTO research_runs (id, tenant_id, question, status, options, workflow_version, updated_at)
       VALUES ($1, $2, 'q', $3, '{}', 1, now())`,
      [runId, tenantId, status],
    );
    const job = { tenantId, runId, node: 'scope', iteration: 0, shard: 0 } as StepJob;
    return { job, key: `${runId}.scope.0.0`, tenantId };
  }

  const row = async (key: string) =>
    (
      await sql<{ status: string; attempts: number; lease_owner: string | null }>(
        db.url,
        'SELECT status, attempts, lease_owner FROM node_executions WHERE step_key = $1',
        [key],
      )
    )[0];

  const expire = (key: string) =>
    sql(db.url, "UPDATE node_executions SET lease_expires_at = now() - interval '1 second' WHERE step_key = $1", [key]);

  it("a live owner's unexpired lease keeps the step; it is taken once the lease expires, and only the new attempt completes", async () => {
    const a = await liveOwner();
    const b = await liveOwner();
    const { job, key, tenantId } = await newStep();
    const first = await executions.start(prisma, job, key, { owner: a.owner, ms: LEASE_MS });
    expect(first?.attempt).toBe(1);
    expect(first?.run.id).toBe(job.runId);
    expect(await row(key)).toEqual({ status: 'running', attempts: 1, lease_owner: a.owner });

    // Held: nothing is written, and the step is not completed.
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBeNull();
    expect(await executions.isCompleted(tenantId, key)).toBe(false);
    expect(await row(key)).toEqual({ status: 'running', attempts: 1, lease_owner: a.owner });

    // A renewing owner keeps it past what would have been its expiry; renewing someone else's lease does nothing.
    await expire(key);
    expect(await executions.renewLeases(b.owner, [key], LEASE_MS)).toBe(0);
    expect(await executions.renewLeases(a.owner, [key], LEASE_MS)).toBe(1);
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBeNull();

    // A's lease lapses (a partition keeps its session, and its liveness lock, alive): B takes the step over.
    await expire(key);
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBe(2);
    expect(await row(key)).toEqual({ status: 'running', attempts: 2, lease_owner: b.owner });

    // Fenced: A's attempt cannot fail or complete the step any more; B's completes it once.
    await prisma.$transaction((tx) => executions.fail(tx, tenantId, key, 1, 'stale'));
    expect(await prisma.$transaction((tx) => executions.complete(tx, tenantId, key, 1, { topics: 1 }))).toBe(false);
    expect(await row(key)).toEqual({ status: 'running', attempts: 2, lease_owner: b.owner });
    expect(await prisma.$transaction((tx) => executions.complete(tx, tenantId, key, 2, { topics: 1 }))).toBe(true);
    expect(await prisma.$transaction((tx) => executions.complete(tx, tenantId, key, 2, { topics: 1 }))).toBe(false);
    expect(await executions.isCompleted(tenantId, key)).toBe(true);
  });

  it("a dead owner's step is taken at once, before its lease expires", async () => {
    const a = await liveOwner();
    const b = await liveOwner();
    const { job, key } = await newStep();
    expect((await executions.start(prisma, job, key, { owner: a.owner, ms: LEASE_MS }))?.attempt).toBe(1);
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBeNull();
    // The process dies: its session closes, and its liveness lock with it.
    await a.die();
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBe(2);
    expect(await row(key)).toMatchObject({ attempts: 2, lease_owner: b.owner });
  });

  it('a failed attempt frees the step for its retry by anyone; the owner itself may restart a step it no longer runs', async () => {
    const a = await liveOwner();
    const b = await liveOwner();
    const { job, key, tenantId } = await newStep();
    expect((await executions.start(prisma, job, key, { owner: a.owner, ms: LEASE_MS }))?.attempt).toBe(1);
    await prisma.$transaction((tx) => executions.fail(tx, tenantId, key, 1, 'boom'));
    expect(await row(key)).toEqual({ status: 'failed', attempts: 1, lease_owner: null });
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBe(2);
    // B's process lost track of the attempt (its handler's error could not be recorded): its next delivery restarts it.
    expect((await executions.start(prisma, job, key, { owner: b.owner, ms: LEASE_MS }))?.attempt).toBe(3);
  });

  it('a run that ended starts nothing and says so; a run that does not exist is null', async () => {
    const a = await liveOwner();
    const { job, key } = await newStep('cancelled');
    const start = await executions.start(prisma, job, key, { owner: a.owner, ms: LEASE_MS });
    expect(start).toMatchObject({ attempt: null, run: { status: 'cancelled' } });
    expect(await row(key)).toBeUndefined();
    expect(await executions.start(prisma, { ...job, runId: randomUUID() }, key, { owner: a.owner, ms: LEASE_MS })).toBeNull();
  });
});

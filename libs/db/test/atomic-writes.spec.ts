import { randomUUID } from 'node:crypto';
import type { StepJob } from '@dossier/contracts';
import { allFulfilled, createTestDatabase, raceAtWrites, separateClients, sql, type TestDatabase } from '@dossier/testing';
import {
  ApiKeyRepository,
  ApprovalRepository,
  ExecutionRepository,
  OutboxRepository,
  RunEventRepository,
  StepCommitRepository,
  TenantRepository,
  type Db,
  PrismaService,
} from '../src';

/**
 * Every write on a unique key that concurrent workers, gateway replicas or CLI processes reach, raced for
 * real (docs/decisions/0012): N callers on connections of their own meet at their writes (`raceAtWrites`
 * holds them until all of them wait), then write together. A read-then-insert fails these every time.
 */
const N = 4;
// The barrier holds callers' transactions open while the others arrive: Prisma's 5 s default must not decide.
const TX = { timeout: 60_000, maxWait: 60_000 };

describe('atomic writes on unique keys (real Postgres, racing callers)', () => {
  let db: TestDatabase;
  let clients: PrismaService[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ clients, close } = await separateClients(N, () => new PrismaService({ url: db.url, poolMax: 2 })));
  });
  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  const count = async (table: string, where: string, params: unknown[] = []) =>
    Number((await sql<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, params))[0]!.n);

  async function newRun(): Promise<{ tenantId: string; runId: string }> {
    const tenantId = randomUUID();
    const runId = randomUUID();
    await sql(db.url, 'INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, `t-${tenantId}`]);
    await sql(
      db.url,
      `INSERT INTO research_runs (id, tenant_id, question, status, options, workflow_version, updated_at)
       VALUES ($1, $2, 'q', 'running', '{}', 1, now())`,
      [runId, tenantId],
    );
    return { tenantId, runId };
  }

  /** Each caller in a transaction of its own, on its own client. */
  const inTx = <T>(work: (tx: Db, i: number) => Promise<T>) => clients.map((c, i) => () => c.$transaction((tx) => work(tx, i), TX));

  it('TenantRepository.ensure: CLI processes starting at once on a fresh database get one tenant', async () => {
    const name = `local-${randomUUID()}`;
    const race = await raceAtWrites(
      db.url,
      'tenants',
      clients.map((c) => () => new TenantRepository(c).ensure(name)),
    );
    expect(race.overlapped).toBe(true);
    const tenants = allFulfilled(race);
    expect(new Set(tenants.map((t) => t.id)).size).toBe(1);
    expect(await count('tenants', 'name = $1', [name])).toBe(1);
  });

  it('TenantRepository.createIfAbsent: two operators creating one tenant get one tenant and one refusal each other', async () => {
    const name = `acme-${randomUUID()}`;
    const race = await raceAtWrites(
      db.url,
      'tenants',
      clients.map((c) => () => new TenantRepository(c).createIfAbsent(name, { caps: {} })),
    );
    expect(race.overlapped).toBe(true);
    const created = allFulfilled(race).filter((t) => t !== null);
    expect(created).toHaveLength(1);
    expect(await count('tenants', 'name = $1', [name])).toBe(1);
  });

  it('ApiKeyRepository.create: keys created at once for a new principal share one principal', async () => {
    const { tenantId } = await newRun();
    const race = await raceAtWrites(
      db.url,
      'principals',
      clients.map((c) => () => new ApiKeyRepository(c).create(tenantId, 'deploy-bot', 'member')),
    );
    expect(race.overlapped).toBe(true);
    const keys = allFulfilled(race);
    expect(new Set(keys.map((k) => k.row.principalId)).size).toBe(1);
    expect(new Set(keys.map((k) => k.row.prefix)).size).toBe(N);
    expect(await count('principals', 'tenant_id = $1', [tenantId])).toBe(1);
    expect(await count('api_keys', 'tenant_id = $1', [tenantId])).toBe(N);
  });

  it('ApiKeyRepository.revoke: concurrent revocations all report the first revocation time', async () => {
    const { tenantId } = await newRun();
    const { row } = await new ApiKeyRepository(clients[0]!).create(tenantId, 'ops');
    const race = await raceAtWrites(
      db.url,
      'api_keys',
      clients.map((c) => () => new ApiKeyRepository(c).revoke(row.prefix)),
    );
    expect(race.overlapped).toBe(true);
    const stored = (await sql<{ revoked_at: Date }>(db.url, 'SELECT revoked_at FROM api_keys WHERE id = $1', [row.id]))[0]!.revoked_at;
    for (const revoked of allFulfilled(race)) expect(revoked?.revokedAt?.getTime()).toBe(stored.getTime());
  });

  it('ApprovalRepository.open: one gate revision opened by racing transactions is one row', async () => {
    const { tenantId, runId } = await newRun();
    const race = await raceAtWrites(
      db.url,
      'approval_decisions',
      inTx((tx) => new ApprovalRepository(clients[0]!).open(tx, { tenantId, runId, gate: 'plan', revision: 0, expiresAt: null })),
    );
    expect(race.overlapped).toBe(true);
    expect(new Set(allFulfilled(race).map((a) => a.id)).size).toBe(1);
    expect(await count('approval_decisions', 'run_id = $1', [runId])).toBe(1);
  });

  it('ExecutionRepository.start: racing deliveries of one step count every attempt once, each with its own step_started seq', async () => {
    const { tenantId, runId } = await newRun();
    const job = { tenantId, runId, node: 'scope', iteration: 0, shard: 0 } as StepJob;
    const stepKey = `${runId}.scope.0.0`;
    // Owners that hold no liveness lock (dead processes): each delivery takes the step over from the one before.
    const race = await raceAtWrites(
      db.url,
      'node_executions',
      inTx((tx, i) =>
        new ExecutionRepository(clients[0]!).start(tx, job, stepKey, { owner: `dead-${i}`, ms: 30_000 }).then((s) => s?.attempt),
      ),
    );
    expect(race.overlapped).toBe(true);
    expect(allFulfilled(race).sort()).toEqual([1, 2, 3, 4]);
    expect((await sql<{ attempts: number }>(db.url, 'SELECT attempts FROM node_executions WHERE step_key = $1', [stepKey]))[0]).toEqual({
      attempts: N,
    });
    const started = await sql<{ seq: number; attempt: number }>(
      db.url,
      "SELECT seq, (data->>'attempt')::int AS attempt FROM run_events WHERE run_id = $1 AND type = 'step_started' ORDER BY seq",
      [runId],
    );
    expect(started.map((e) => e.attempt).sort()).toEqual([1, 2, 3, 4]);
    expect(started.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('ExecutionRepository.start: a completed step records no attempt and no event', async () => {
    const { tenantId, runId } = await newRun();
    const job = { tenantId, runId, node: 'scope', iteration: 0, shard: 0 } as StepJob;
    const stepKey = `${runId}.scope.0.0`;
    const executions = new ExecutionRepository(clients[0]!);
    const lease = { owner: 'dead', ms: 30_000 };
    expect((await executions.start(clients[0]!, job, stepKey, lease))?.attempt).toBe(1);
    await clients[0]!.$transaction((tx) => executions.complete(tx, tenantId, stepKey, 1, { topics: 1 }));
    expect((await executions.start(clients[0]!, job, stepKey, lease))?.attempt).toBeNull();
    expect(await executions.isCompleted(tenantId, stepKey)).toBe(true);
    expect(await count('run_events', 'run_id = $1', [runId])).toBe(1);
    expect(await count('node_executions', "step_key = $1 AND status = 'completed' AND attempts = 1", [stepKey])).toBe(1);
  });

  it('RunEventRepository.append: appenders that did not take the run lock still number events without a gap', async () => {
    const { tenantId, runId } = await newRun();
    const race = await raceAtWrites(
      db.url,
      'run_events',
      inTx((tx, i) =>
        new RunEventRepository(clients[0]!).append(tx, tenantId, runId, [
          { type: 'run_cancelled', reason: `first of ${i}` },
          { type: 'run_cancelled', reason: `second of ${i}` },
        ]),
      ),
    );
    expect(race.overlapped).toBe(true);
    allFulfilled(race);
    const rows = await sql<{ seq: number; data: { reason: string } }>(
      db.url,
      'SELECT seq, data FROM run_events WHERE run_id = $1 ORDER BY seq',
      [runId],
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 2 * N }, (_, i) => i + 1));
    // Each appender's events are consecutive: the lock covers the read of the last seq and the insert.
    for (let i = 0; i < rows.length; i += 2) expect(rows[i + 1]!.data.reason).toBe(rows[i]!.data.reason.replace('first', 'second'));
  });

  it('OutboxRepository.insert: racing joins decide the same next steps once, each returned to exactly one of them', async () => {
    const { tenantId, runId } = await newRun();
    const rows = ['a', 'b', 'c'].map((s, shard) => ({
      tenantId,
      runId,
      stepKey: `${runId}.extract.0.${s}`,
      causeKey: 'cause',
      node: 'extract',
      iteration: 0,
      shard,
      payload: {},
    }));
    const race = await raceAtWrites(
      db.url,
      'outbox',
      inTx((tx) => new OutboxRepository(clients[0]!).insert(tx, rows)),
    );
    expect(race.overlapped).toBe(true);
    const returned = allFulfilled(race).flatMap((inserted) => inserted.map((r) => r.stepKey));
    expect(returned.sort()).toEqual(rows.map((r) => r.stepKey).sort());
    expect(await count('outbox', 'run_id = $1', [runId])).toBe(3);
  });

  it('StepCommitRepository: racing shard completions each see every shard completed before them, so exactly one joins', async () => {
    const { tenantId, runId } = await newRun();
    const keys = clients.map((_, shard) => `${runId}.extract.0.${shard}`);
    for (const [shard, key] of keys.entries()) {
      await sql(
        db.url,
        `INSERT INTO outbox (tenant_id, run_id, step_key, cause_key, node, iteration, shard, payload) VALUES ($1, $2, $3, 'cause', 'extract', 0, $4, '{}')`,
        [tenantId, runId, key, shard],
      );
      await sql(
        db.url,
        `INSERT INTO node_executions (step_key, tenant_id, run_id, node, iteration, shard, status, attempts, started_at)
         VALUES ($1, $2, $3, 'extract', 0, $4, 'running', 1, now())`,
        [key, tenantId, runId, shard],
      );
    }
    // The callers meet at their completing UPDATE: one holds the run lock and waits at the barrier, the others wait for the
    // run lock, their statements' snapshots taken before any shard committed. What the router reads must still see them.
    const race = await raceAtWrites(
      db.url,
      'node_executions',
      inTx(async (tx, i) => {
        const commits = new StepCommitRepository();
        // One statement locks, completes and reads (docs/decisions/0121): its read must not use the snapshot the
        // statement took before it waited for the run lock.
        const step = { stepKey: keys[i]!, node: 'extract' as const, iteration: 0, kind: 'fanout' as const };
        const locked = await commits.completeAndRead(tx, tenantId, runId, step, 1, { evidence: i });
        if (!locked?.completed) throw new Error(`shard ${i} did not complete`);
        return { expected: locked.state.fanout!.expected, done: locked.state.fanout!.done.length };
      }),
    );
    expect(race.overlapped).toBe(true);
    const seen = allFulfilled(race);
    expect(seen.map((s) => s.expected)).toEqual(clients.map(() => clients.length));
    expect(seen.map((s) => s.done).sort()).toEqual(clients.map((_, i) => i + 1));
    expect(await count('node_executions', "run_id = $1 AND status = 'completed'", [runId])).toBe(clients.length);
  });

  it('StepCommitRepository.writeTransition: racing joins decide the same next steps once, with every event numbered once', async () => {
    const { tenantId, runId } = await newRun();
    const steps = ['a', 'b', 'c'].map((s, shard) => ({
      stepKey: `${runId}.claims.0.${s}`,
      node: 'claims',
      iteration: 0,
      shard,
      payload: {},
    }));
    const race = await raceAtWrites(
      db.url,
      'outbox',
      inTx((tx, i) =>
        new StepCommitRepository().writeTransition(tx, {
          tenantId,
          runId,
          causeKey: `cause-${i}`,
          steps,
          patch: { currentNode: 'claims', status: 'running' },
          events: [{ type: 'run_resumed' }],
          checkpoint: { stepKey: `${runId}.extract.0.${i}`, state: { i } },
        }),
      ),
    );
    expect(race.overlapped).toBe(true);
    const returned = allFulfilled(race).flatMap((inserted) => inserted.map((r) => r.stepKey));
    expect(returned.sort()).toEqual(steps.map((r) => r.stepKey).sort());
    expect(await count('outbox', 'run_id = $1', [runId])).toBe(3);
    expect(await count('workflow_checkpoints', 'run_id = $1', [runId])).toBe(clients.length);
    const seqs = await sql<{ seq: number }>(db.url, 'SELECT seq FROM run_events WHERE run_id = $1 ORDER BY seq', [runId]);
    expect(seqs.map((r) => Number(r.seq))).toEqual(clients.map((_, i) => i + 1));
  });

  it('report artifacts: the renderer’s upsert shape (non-empty update) is one statement, so racing renders leave one row per format', async () => {
    const { tenantId, runId } = await newRun();
    const race = await raceAtWrites(
      db.url,
      'report_artifacts',
      inTx((tx, i) =>
        tx.reportArtifact.upsert({
          where: { runId_format: { runId, format: 'md' } },
          create: { tenantId, runId, format: 'md', content: `render ${i}` },
          update: { content: `render ${i}` },
        }),
      ),
    );
    expect(race.overlapped).toBe(true);
    allFulfilled(race);
    expect(await count('report_artifacts', 'run_id = $1', [runId])).toBe(1);
  });
});

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { PrismaService, reserveUnderRunLock, type PendingLlmCall, type SpendRow } from '../src';

/** A model call's reservation under its run's budget lock (docs/decisions/0160), against real Postgres. */
describe('reserveUnderRunLock (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  const tenantId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 4 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const pending = (runId: string, tokensIn = 100, extra: Partial<PendingLlmCall> = {}): PendingLlmCall => ({
    tenantId,
    runId,
    stepKey: `${runId}.extract.0.${randomUUID().slice(0, 4)}`,
    role: 'extractor',
    engine: 'openai',
    model: 'm',
    tokensIn,
    costUsd: 0.01,
    requestHash: 'hash',
    ...extra,
  });
  const inFlightTokens = (rows: SpendRow[]) => rows.filter((r) => r.inFlight).reduce((n, r) => n + r.tokens, 0);
  const call = (
    runId: string,
    data: { engine?: string; outcome: string; tokensIn: number; tokensOut: number; costUsd: number; createdAt?: Date; tenant?: string },
  ) =>
    prisma.llmCall.create({
      data: {
        tenantId: data.tenant ?? tenantId,
        runId,
        stepKey: 's',
        role: 'writer',
        engine: data.engine ?? 'openai',
        model: 'm',
        tokensIn: data.tokensIn,
        tokensOut: data.tokensOut,
        costUsd: data.costUsd,
        latencyMs: 1,
        outcome: data.outcome,
        ...(data.createdAt ? { createdAt: data.createdAt } : {}),
      },
    });

  it('inserts the pending row with the estimate when told to reserve, and nothing when told otherwise', async () => {
    const runId = randomUUID();
    const reserved = await reserveUnderRunLock(prisma, pending(runId, 250), new Date(0), () => 'reserve' as const);
    expect(reserved).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const row = await prisma.llmCall.findUniqueOrThrow({ where: { id: (reserved as { id: string }).id } });
    expect(row).toMatchObject({
      tenantId,
      runId,
      outcome: 'pending',
      tokensIn: 250,
      tokensOut: 0,
      latencyMs: 0,
      costUsd: 0.01,
      requestHash: 'hash',
      error: null,
    });

    expect(await reserveUnderRunLock(prisma, pending(runId), new Date(0), () => ({ exhausted: 'tokens' as const }))).toEqual({
      exhausted: 'tokens',
    });
    expect(await prisma.llmCall.count({ where: { runId } })).toBe(1);
  });

  it('reads the run spend by side: the offline engine, stale reservations, other runs and other tenants left out', async () => {
    const runId = randomUUID();
    const staleBefore = new Date(Date.now() - 60_000);
    await call(runId, { outcome: 'ok', tokensIn: 100, tokensOut: 20, costUsd: 0.5 });
    await call(runId, { outcome: 'failed', tokensIn: 30, tokensOut: 0, costUsd: 0.25 });
    await call(runId, { outcome: 'pending', tokensIn: 400, tokensOut: 0, costUsd: 1 });
    await call(runId, { outcome: 'pending', tokensIn: 9_000, tokensOut: 0, costUsd: 9, createdAt: new Date(Date.now() - 120_000) });
    await call(runId, { engine: 'offline', outcome: 'ok', tokensIn: 7_000, tokensOut: 7_000, costUsd: 0 });
    await call(randomUUID(), { outcome: 'ok', tokensIn: 5_000, tokensOut: 0, costUsd: 5 });
    await call(runId, { outcome: 'ok', tokensIn: 6_000, tokensOut: 0, costUsd: 6, tenant: randomUUID() });
    let seen: SpendRow[] = [];
    await reserveUnderRunLock(prisma, pending(runId), staleBefore, (rows) => {
      seen = rows;
      return 'wait' as const;
    });
    expect([...seen].sort((a, b) => Number(a.inFlight) - Number(b.inFlight))).toEqual([
      { inFlight: false, tokens: 150, costUsd: 0.75 },
      { inFlight: true, tokens: 400, costUsd: 1 },
    ]);
  });

  it('serialises one run: twelve callers at once on four connections reserve exactly what fits', async () => {
    const runId = randomUUID();
    // Room for five reservations of 100 tokens: without the lock, callers reading at once would all see room.
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        reserveUnderRunLock(prisma, pending(runId), new Date(0), (rows) =>
          inFlightTokens(rows) + 100 <= 500 ? 'reserve' : ('full' as const),
        ),
      ),
    );
    expect(results.filter((r) => r === 'full')).toHaveLength(7);
    expect(await prisma.llmCall.count({ where: { runId, outcome: 'pending' } })).toBe(5);
  });

  it('holds only its own run: a caller of another run is not held behind a run whose lock is taken', async () => {
    const [held, free] = [randomUUID(), randomUUID()];
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext('dossier.budget'), hashtext($1::text))`, [held]);
      let heldDone = false;
      const waiting = reserveUnderRunLock(prisma, pending(held), new Date(0), () => 'reserve' as const).then((r) => {
        heldDone = true;
        return r;
      });
      expect(await reserveUnderRunLock(prisma, pending(free), new Date(0), () => 'reserve' as const)).toHaveProperty('id');
      expect(heldDone).toBe(false);
      await holder.query('COMMIT');
      expect(await waiting).toHaveProperty('id');
    } finally {
      await holder.end();
    }
  });

  it('two round trips: BEGIN, the lock and the read go out together, COMMIT right behind the insert', async () => {
    const runId = randomUUID();
    const sent: { text: string; unanswered: number }[] = [];
    const unanswered = new WeakMap<object, number>();
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first.text ?? '')).replace(/\s+/g, ' ').trim();
      sent.push({ text, unanswered: unanswered.get(this) ?? 0 });
      unanswered.set(this, (unanswered.get(this) ?? 0) + 1);
      const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
      const result = (query as (...a: unknown[]) => unknown).apply(this, args) as PromiseLike<unknown>;
      result.then(answered, answered);
      return result;
    } as typeof query;
    try {
      await reserveUnderRunLock(prisma, pending(runId), new Date(0), () => 'reserve' as const);
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(sent.map((s) => s.text.split(' ').slice(0, 2).join(' '))).toEqual([
      'BEGIN',
      "SELECT pg_advisory_xact_lock(hashtext('dossier.budget'),",
      'SELECT outcome',
      'INSERT INTO',
      'COMMIT',
    ]);
    // 0 starts a round trip; more rides on one already on the wire.
    expect(sent.map((s) => s.unanswered)).toEqual([0, 1, 2, 0, 1]);
  });

  it('a decision that throws rolls back: no row, the error reaches the caller, and the connection goes back to the pool', async () => {
    const runId = randomUUID();
    await expect(
      reserveUnderRunLock(prisma, pending(runId), new Date(0), () => {
        throw new Error('the rule broke');
      }),
    ).rejects.toThrow('the rule broke');
    expect(await prisma.llmCall.count({ where: { runId } })).toBe(0);
    // The lock went with the transaction: the next caller of the run is not held.
    expect(await reserveUnderRunLock(prisma, pending(runId), new Date(0), () => 'reserve' as const)).toHaveProperty('id');
    expect(prisma.pool.totalCount).toBeLessThanOrEqual(4);
    expect(prisma.pool.waitingCount).toBe(0);
  });
});

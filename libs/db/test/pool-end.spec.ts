import type { PoolClient } from 'pg';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { PrismaService } from '../src';

/**
 * Ending the process's pool with callers waiting for a connection (docs/decisions/0139). pg-pool's `end()` neither serves
 * nor fails the callers queued for a connection: they waited forever, and a step whose statement was queued never
 * finished, so a worker draining it on `app.close()` never closed (CI's shard 2 hung at gateway roles.spec).
 */
describe('PrismaService: ending the pool with callers waiting for a connection (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Settles within `ms`, or says it did not. */
  const within = <T>(p: Promise<T>, ms: number): Promise<PromiseSettledResult<T> | 'pending'> =>
    Promise.race([
      p.then(
        (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
      ),
      new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms).unref()),
    ]);

  it('a query queued for a connection when the pool ends fails instead of waiting forever; the pool ends', async () => {
    const prisma = new PrismaService({ url: db.url, poolMax: 1 });
    await prisma.tenant.count(); // Prisma's engine is up: its next query goes straight to the pool.
    const held = await (prisma.pool.connect() as Promise<PoolClient>);
    // Both wait for the one connection: one through Prisma's adapter, one through the pool itself (each settled as it
    // happens: a Prisma promise runs only once something waits on it).
    const viaPrisma = within(prisma.tenant.count(), 10_000);
    const viaPool = within(prisma.pool.query('SELECT 1') as Promise<unknown>, 10_000);
    for (let i = 0; i < 300 && prisma.pool.waitingCount === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const waiting = prisma.pool.waitingCount;
    const disconnected = prisma.$disconnect();
    // The pool is ending (Prisma let go of it first) while its one connection is still out, as a step's was.
    for (let i = 0; i < 300 && !prisma.pool.ending; i++) await new Promise((r) => setTimeout(r, 10));
    expect(prisma.pool.ending).toBe(true);
    held.release();
    expect(waiting).toBeGreaterThan(0);
    expect(await within(disconnected, 5_000)).toEqual({ status: 'fulfilled', value: undefined });
    // Neither is left waiting: each fails (the pool ended) — none of them may stay pending.
    expect(await viaPool).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/pool/) } });
    expect(await viaPrisma).toMatchObject({ status: 'rejected' });
  });
});

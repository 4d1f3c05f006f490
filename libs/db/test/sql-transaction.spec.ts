import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { classifyError } from '@dossier/errors';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { Prisma, PrismaService, boundConnection, queryRows, sqlTransaction } from '../src';

/**
 * The engine's transaction on the driver, with Prisma's queries of its scope on the same connection
 * (docs/decisions/0104): one transaction whichever way a statement is sent, and nothing sent outside it.
 */
describe('sqlTransaction and queryRows (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  const TX = { timeoutMs: 10_000 };

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 3 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const tenantNamed = async (name: string) =>
    (await sql<{ n: string }>(db.url, 'SELECT count(*) AS n FROM tenants WHERE name = $1', [name]))[0]!.n === '1';
  const insertRaw = (name: string) =>
    queryRows(prisma, Prisma.sql`INSERT INTO tenants (id, name) VALUES (${randomUUID()}::uuid, ${name}) RETURNING id`);

  it('commits Prisma writes and driver statements together', async () => {
    const [viaPrisma, viaDriver] = [`p-${randomUUID()}`, `d-${randomUUID()}`];
    await sqlTransaction(
      prisma.pool,
      async () => {
        await prisma.tenant.create({ data: { id: randomUUID(), name: viaPrisma } });
        await insertRaw(viaDriver);
        // Not visible outside before COMMIT: both went to the transaction's connection.
        expect(await tenantNamed(viaPrisma)).toBe(false);
        expect(await tenantNamed(viaDriver)).toBe(false);
      },
      TX,
    );
    expect(await tenantNamed(viaPrisma)).toBe(true);
    expect(await tenantNamed(viaDriver)).toBe(true);
  });

  it('rolls both back when the work throws, and the connection goes back to the pool clean', async () => {
    const [viaPrisma, viaDriver] = [`p-${randomUUID()}`, `d-${randomUUID()}`];
    await expect(
      sqlTransaction(
        prisma.pool,
        async () => {
          await prisma.tenant.create({ data: { id: randomUUID(), name: viaPrisma } });
          await insertRaw(viaDriver);
          throw new Error('handler failed');
        },
        TX,
      ),
    ).rejects.toThrow('handler failed');
    expect(await tenantNamed(viaPrisma)).toBe(false);
    expect(await tenantNamed(viaDriver)).toBe(false);
    // Every connection of the pool is usable and outside any transaction afterwards.
    const states = await Promise.all(
      [0, 1, 2].map(() => queryRows<{ tx: string }>(prisma, Prisma.sql`SELECT txid_current_if_assigned()::text AS tx`)),
    );
    expect(states.map((r) => r[0]!.tx)).toEqual([null, null, null]);
  });

  it("turns a transaction Prisma opens inside the scope into a savepoint: its failure keeps the engine's writes", async () => {
    const [kept, undone] = [`k-${randomUUID()}`, `u-${randomUUID()}`];
    await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(kept);
        await expect(
          prisma.$transaction(async (tx) => {
            await tx.tenant.create({ data: { id: randomUUID(), name: undone } });
            throw new Error('inner failed');
          }),
        ).rejects.toThrow('inner failed');
      },
      TX,
    );
    expect(await tenantNamed(kept)).toBe(true);
    expect(await tenantNamed(undone)).toBe(false);
  });

  it('a statement of a Prisma transaction runs in that transaction, not on the pool', async () => {
    const name = `t-${randomUUID()}`;
    await expect(
      prisma.$transaction(async (tx) => {
        await queryRows(tx, Prisma.sql`INSERT INTO tenants (id, name) VALUES (${randomUUID()}::uuid, ${name})`);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await tenantNamed(name)).toBe(false);
  });

  it('past its time the connection is dropped, nothing is committed and the error is transient', async () => {
    const name = `slow-${randomUUID()}`;
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(name);
        await queryRows(prisma, Prisma.sql`SELECT pg_sleep(2)`);
      },
      { timeoutMs: 500 },
    ).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('P2028');
    expect(classifyError(err)).toBe('retryable');
    expect(await tenantNamed(name)).toBe(false);
    // The pool replaced the dropped connection.
    expect((await queryRows<{ one: number }>(prisma, Prisma.sql`SELECT 1 AS one`))[0]!.one).toBe(1);
  });

  it('a connection that dies under the transaction fails it with a retryable error, and the process lives on', async () => {
    const name = `cut-${randomUUID()}`;
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(name);
        const [{ pid }] = await queryRows<{ pid: number }>(prisma, Prisma.sql`SELECT pg_backend_pid() AS pid`);
        // Another connection ends this one, as a Postgres restart would: the client emits 'error' and its query fails.
        await sql(db.url, 'SELECT pg_terminate_backend($1)', [pid]);
        await queryRows(prisma, Prisma.sql`SELECT 1`);
      },
      TX,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(classifyError(err)).toBe('retryable');
    expect(await tenantNamed(name)).toBe(false);
    // The dead connection left the pool: the next statements get live ones.
    expect((await queryRows<{ one: number }>(prisma, Prisma.sql`SELECT 1 AS one`))[0]!.one).toBe(1);
  });

  // pg's pipeline mode for the span of the transaction (docs/decisions/0135): every connection of the pool is back out
  // of it, outside any transaction and usable.
  const poolIsClean = async () => {
    const pool = prisma.pool as unknown as { connect(): Promise<PoolClient> };
    const clients = await Promise.all([0, 1, 2].map(() => pool.connect()));
    try {
      expect(clients.map((c) => (c as unknown as { pipeline: boolean }).pipeline)).toEqual([false, false, false]);
      const states = await Promise.all(clients.map((c) => c.query('SELECT txid_current_if_assigned()::text AS tx')));
      expect(states.map((r) => r.rows[0].tx)).toEqual([null, null, null]);
    } finally {
      clients.forEach((c) => c.release());
    }
  };

  it('BEGIN rides with the first statement: a failing first statement rolls back and the connection goes back usable', async () => {
    const name = `first-${randomUUID()}`;
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await queryRows(prisma, Prisma.sql`SELECT 1 / (SELECT count(*) FROM tenants WHERE name = ${name})::int AS x`);
        await insertRaw(name);
      },
      TX,
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/division by zero/);
    expect(await tenantNamed(name)).toBe(false);
    await poolIsClean();
  });

  it('COMMIT sent behind the last statement commits with it', async () => {
    const [first, last] = [`a-${randomUUID()}`, `z-${randomUUID()}`];
    await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(first);
        await queryRows(prisma, Prisma.sql`INSERT INTO tenants (id, name) VALUES (${randomUUID()}::uuid, ${last})`, { last: true });
      },
      TX,
    );
    expect(await tenantNamed(first)).toBe(true);
    expect(await tenantNamed(last)).toBe(true);
    await poolIsClean();
  });

  it('a failing last statement with COMMIT sent behind it is not committed and throws its own error', async () => {
    const [first, last] = [`a-${randomUUID()}`, `z-${randomUUID()}`];
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(first);
        await queryRows(
          prisma,
          Prisma.sql`INSERT INTO tenants (id, name) VALUES (${randomUUID()}::uuid, ${last}), ('not-a-uuid'::uuid, 'x')`,
          { last: true },
        );
      },
      TX,
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/invalid input syntax for type uuid/);
    // The statement's own error, as without the COMMIT behind it (classified by its SQLSTATE as before).
    expect((err as { code?: string }).code).toBe('22P02');
    expect(await tenantNamed(first)).toBe(false);
    expect(await tenantNamed(last)).toBe(false);
    await poolIsClean();
  });

  it('a statement after the one sent with COMMIT is refused, not run outside the transaction', async () => {
    const [first, after] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await queryRows(prisma, Prisma.sql`INSERT INTO tenants (id, name) VALUES (${randomUUID()}::uuid, ${first})`, { last: true });
        await insertRaw(after);
      },
      TX,
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/after its transaction was committed/);
    expect(await tenantNamed(first)).toBe(true);
    expect(await tenantNamed(after)).toBe(false);
    await poolIsClean();
  });

  it('past its time a connection with a pipelined statement in flight is destroyed at once, as before', async () => {
    const name = `slow-${randomUUID()}`;
    const started = Date.now();
    const err = await sqlTransaction(
      prisma.pool,
      async () => {
        await insertRaw(name);
        await queryRows(prisma, Prisma.sql`SELECT pg_sleep(3)`);
      },
      { timeoutMs: 300 },
    ).catch((e: unknown) => e);
    // pg's end() would wait for a pipelined statement to finish (3 s); the transaction's timer takes the connection
    // out of pipeline mode first, so its socket is destroyed and Postgres rolls back now.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((err as { code?: string }).code).toBe('P2028');
    expect(await tenantNamed(name)).toBe(false);
    await poolIsClean();
  });

  it('reads int8 as BigInt, as $queryRaw does, and binds nothing outside the scope', async () => {
    const rows = await queryRows<{ big: bigint }>(prisma, Prisma.sql`SELECT 9007199254740993::int8 AS big`);
    expect(rows[0]!.big).toBe(9007199254740993n);
    const raw = await prisma.$queryRaw<{ big: bigint }[]>`SELECT 9007199254740993::int8 AS big`;
    expect(raw[0]!.big).toBe(rows[0]!.big);
    await sqlTransaction(prisma.pool, async () => expect(boundConnection()).toBeDefined(), TX);
    expect(boundConnection()).toBeUndefined();
  });
});

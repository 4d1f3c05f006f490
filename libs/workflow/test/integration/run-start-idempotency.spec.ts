import { Prisma } from '@dossier/db';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';

/**
 * RunCommands.start with an idempotency key: the unique key decides (docs/decisions/0012). A start whose key
 * is taken never hands back the other run as if it had created it (the caller would answer 201, and skip its
 * check that the question is the same); it fails with P2002 and leaves nothing behind.
 */
describe('RunCommands.start and idempotency keys (real Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;

  beforeAll(async () => {
    db = await prepareDatabase();
    engine = await startEngine(db, uniquePrefix('idem'), []);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('a second start with a used key fails with P2002 and writes nothing', async () => {
    const first = await engine!.commands.start({ tenantId: TENANT, question: 'first', idempotencyKey: 'k-1', actor: 'test' });
    const err = await engine!.commands.start({ tenantId: TENANT, question: 'other question', idempotencyKey: 'k-1', actor: 'test' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((err as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
    expect(await sql(db.url, "SELECT id FROM research_runs WHERE idempotency_key = 'k-1'")).toEqual([{ id: first.id }]);
    expect(await sql(db.url, "SELECT 1 FROM research_runs WHERE question = 'other question'")).toEqual([]);
  });
});

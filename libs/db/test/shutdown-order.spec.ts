import { Injectable, Module, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { DbModule, PrismaService } from '../src';

/**
 * The process's pool outlives the work that `app.close()` waits for (docs/decisions/0148). Nest runs every module's
 * `onModuleDestroy` (the database module's first: it is the deepest) before any `beforeApplicationShutdown`, where the
 * step transports drain and the conductor waits for its tick in flight. A pool ended in `onModuleDestroy` failed those
 * statements ("Cannot use a pool after calling end on the pool", logged by the conductor at every CLI eval's end).
 */
describe('PrismaService: ended after the shutdown hooks that still use it (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a statement sent in onModuleDestroy and in beforeApplicationShutdown succeeds; the pool is ended after close()', async () => {
    const seen: string[] = [];

    @Injectable()
    class LateUser implements OnModuleDestroy, BeforeApplicationShutdown {
      constructor(private readonly prisma: PrismaService) {}
      async onModuleDestroy(): Promise<void> {
        seen.push(`destroy:${await this.count()}`);
      }
      async beforeApplicationShutdown(): Promise<void> {
        seen.push(`before-shutdown:${await this.count()}`);
      }
      private count(): Promise<string> {
        return this.prisma.tenant.count().then(
          (n) => `ok ${n}`,
          (err: Error) => `failed ${err.message}`,
        );
      }
    }
    @Module({ imports: [DbModule.forRoot({ url: db.url, poolMax: 2 })], providers: [LateUser] })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const prisma = app.get(PrismaService);
    await prisma.tenant.count();
    await app.close();
    expect(seen).toEqual(['destroy:ok 0', 'before-shutdown:ok 0']);
    expect(prisma.pool.ended).toBe(true);
  });
});

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { PoolClient } from 'pg';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { poolSettings, PrismaService } from '../src';

/**
 * The pool keeps warm connections (docs/decisions/0155): pg's default closed every connection after 10 s unused, and a
 * step after a pause paid for a new connection and a cold backend (20-100 ms). Kept: `poolMin`; the rest for `poolIdleMs`.
 */
describe('PrismaService: idle connections kept (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const backendPid = async (client: PoolClient): Promise<number> =>
    (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('closes the connections above the minimum after the idle time, and keeps the minimum open on the same backends', async () => {
    const prisma = new PrismaService({ url: db.url, poolMax: 4, poolMin: 2, poolIdleMs: 150 });
    try {
      const clients = await Promise.all([0, 1, 2, 3].map(() => prisma.pool.connect() as Promise<PoolClient>));
      const pids = await Promise.all(clients.map(backendPid));
      expect(new Set(pids).size).toBe(4);
      for (const c of clients) c.release();
      expect(prisma.pool.totalCount).toBe(4);
      for (let i = 0; i < 100 && prisma.pool.totalCount > 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(prisma.pool.totalCount).toBe(2);
      // Well past the idle time, the two kept are still there: no new connection, the same backends answer.
      await new Promise((r) => setTimeout(r, 400));
      expect(prisma.pool.totalCount).toBe(2);
      const again = await Promise.all([0, 1].map(() => prisma.pool.connect() as Promise<PoolClient>));
      const kept = await Promise.all(again.map(backendPid));
      for (const c of again) c.release();
      expect(kept.every((pid) => pids.includes(pid))).toBe(true);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('the defaults: two kept, the others for a minute, never more kept than the pool holds', () => {
    expect(poolSettings({ url: 'postgresql://x/y' })).toMatchObject({ max: 10, min: 2, idleTimeoutMillis: 60_000 });
    expect(poolSettings({ url: 'postgresql://x/y', poolMax: 1 })).toMatchObject({ max: 1, min: 1 });
    expect(poolSettings({ url: 'postgresql://x/y', poolMin: 0, poolIdleMs: 0 })).toMatchObject({ min: 0, idleTimeoutMillis: 0 });
  });

  it('kept connections do not keep a process alive that has nothing else to do', () => {
    // A process that used the pool and never closed it: it exits on its own, as it did when pg closed idle connections.
    const script = `
      const { PrismaService } = require(${JSON.stringify(path.resolve(__dirname, '../src'))});
      const prisma = new PrismaService({ url: process.env.DB_URL, poolMax: 3, poolMin: 3, poolIdleMs: 0 });
      prisma.pool.query('SELECT 1').then(() => console.log('queried'));`;
    const out = spawnSync(process.execPath, ['-r', path.resolve(__dirname, '../../../tools/ts-register.cjs'), '-e', script], {
      env: { ...process.env, DB_URL: db.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.stdout).toContain('queried');
    expect(out.status).toBe(0);
    // A child held open by its connections would be killed at the timeout instead.
    expect(out.signal).toBeNull();
  });
});

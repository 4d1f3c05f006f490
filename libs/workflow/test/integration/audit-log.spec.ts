import { AuditRepository, PrismaService, RunRepository } from '@dossier/db';
import { allFulfilled, raceAtWrites, separateClients, sql, type TestDatabase } from '@dossier/testing';
import { AuditLog } from '../../src';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';

describe('audit log (real Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;

  beforeAll(async () => {
    db = await prepareDatabase();
    engine = await startEngine(db, uniquePrefix('audit'), []);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  it('8 concurrent writers on one run leave no gap and the chain verifies; tampering with one row names it', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'audit', actor: 'test' });
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 15; i++)
          await engine!.audit.append(TENANT, run.id, 'note', `writer-${w}`, { w, i, text: `entry ${i} — ünïcode ✓` });
      })(),
    );
    await Promise.all(writers);

    const rows = await sql<{ seq: number; kind: string }>(db.url, 'SELECT seq, kind FROM audit_events WHERE run_id = $1 ORDER BY seq', [
      run.id,
    ]);
    expect(rows[0]).toEqual({ seq: 0, kind: 'run_created' });
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i));
    expect(rows.filter((r) => r.kind === 'note')).toHaveLength(120);
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toEqual({ ok: true, rows: rows.length });

    // One byte changed in a stored payload: that row, and no earlier one, is named.
    await sql(db.url, `UPDATE audit_events SET payload = replace(payload, 'entry', 'Entry') WHERE run_id = $1 AND seq = 57`, [run.id]);
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toMatchObject({ ok: false, firstBadSeq: 57, reason: 'hash_mismatch' });

    // A deleted row is a gap, named at its position.
    await sql(db.url, `UPDATE audit_events SET payload = replace(payload, 'Entry', 'entry') WHERE run_id = $1 AND seq = 57`, [run.id]);
    await sql(db.url, 'DELETE FROM audit_events WHERE run_id = $1 AND seq = 30', [run.id]);
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toMatchObject({ ok: false, firstBadSeq: 30, reason: 'gap' });
  });

  it('appendLocked from racing transactions that never took the run lock still chains without a gap (docs/decisions/0012)', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'raced audit', actor: 'test' });
    const { clients, close } = await separateClients(4, () => new PrismaService({ url: db.url, poolMax: 2 }));
    try {
      const race = await raceAtWrites(
        db.url,
        'audit_events',
        clients.map((c, i) => () => {
          const audit = new AuditLog(c, new AuditRepository(c), new RunRepository(c));
          return c.$transaction((tx) => audit.appendLocked(tx, TENANT, run.id, 'note', `writer-${i}`, { i }), {
            timeout: 60_000,
            maxWait: 60_000,
          });
        }),
      );
      expect(race.overlapped).toBe(true);
      allFulfilled(race);
    } finally {
      await close();
    }
    const rows = await sql<{ seq: number; kind: string }>(db.url, 'SELECT seq, kind FROM audit_events WHERE run_id = $1 ORDER BY seq', [
      run.id,
    ]);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i));
    expect(rows.filter((r) => r.kind === 'note')).toHaveLength(4);
    await expect(engine!.audit.verify(TENANT, run.id)).resolves.toEqual({ ok: true, rows: rows.length });
  });

  it('another tenant sees no audit rows of the run', async () => {
    const run = await engine!.commands.start({ tenantId: TENANT, question: 'tenant', actor: 'test' });
    await expect(engine!.audit.verify('00000000-0000-4000-8000-0000000000ff', run.id)).resolves.toMatchObject({
      ok: false,
      reason: 'no_genesis',
    });
  });
});

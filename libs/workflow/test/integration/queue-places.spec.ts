import { QUEUE_SPACING_MS } from '@dossier/db';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';

/**
 * A run's place in the step queues (docs/decisions/0162): one tenant's runs in progress a minute apart, another
 * tenant's run at its start, and every step job the run's transitions write carries that place.
 */
describe('queue places: one tenant’s batch does not hold back another tenant’s run (real Postgres)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  const OTHER = '00000000-0000-4000-8000-000000000002';

  beforeAll(async () => {
    db = await prepareDatabase();
    await sql(db.url, `INSERT INTO tenants (id, name) VALUES ('${OTHER}', 'other')`);
    // No service consumes: the runs stay at their first step, in progress.
    engine = await startEngine(db, uniquePrefix('places'), []);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.drop();
  });

  const place = async (runId: string) => {
    const [row] = await sql<{ created: Date; queue: Date }>(
      db.url,
      'SELECT created_at AS created, queue_at AS queue FROM research_runs WHERE id = $1',
      [runId],
    );
    return { created: row!.created.getTime(), queue: row!.queue.getTime() };
  };
  const start = (tenantId: string, question: string) => engine!.commands.start({ tenantId, question, actor: 'test' });

  it('places a tenant’s runs in progress a minute apart, and another tenant’s run at its start', async () => {
    const batch = [];
    for (let i = 0; i < 3; i++) batch.push(await start(TENANT, `batch ${i}`));
    const other = await start(OTHER, 'later, another tenant');
    const [a, b, c] = await Promise.all(batch.map((r) => place(r.id)));
    const o = await place(other.id);
    expect(a!.queue).toBe(a!.created);
    expect(b!.queue).toBe(a!.queue + QUEUE_SPACING_MS);
    expect(c!.queue).toBe(a!.queue + 2 * QUEUE_SPACING_MS);
    // Started after the whole batch, the other tenant's run is placed ahead of the batch's second and third runs.
    expect(o.created).toBeGreaterThanOrEqual(c!.created);
    expect(o.queue).toBe(o.created);
    expect(o.queue).toBeLessThan(b!.queue);

    // Every step the runs' first transitions decided carries its run's place, which StepQueues makes the priority.
    const payloads = await sql<{ run_id: string; at: string }>(
      db.url,
      "SELECT run_id, payload->>'runCreatedAt' AS at FROM outbox WHERE run_id = ANY($1::uuid[])",
      [[...batch.map((r) => r.id), other.id]],
    );
    expect(payloads.length).toBe(4);
    const expected = new Map([...batch.map((r, i) => [r.id, [a, b, c][i]!.queue] as const), [other.id, o.queue]]);
    for (const p of payloads) expect(Number(p.at)).toBe(expected.get(p.run_id));
  });

  it('a batch started all at once is placed a minute apart too: the tenant’s starts take turns', async () => {
    const THIRD = '00000000-0000-4000-8000-000000000003';
    await sql(db.url, `INSERT INTO tenants (id, name) VALUES ('${THIRD}', 'third')`);
    const runs = await Promise.all(Array.from({ length: 5 }, (_, i) => start(THIRD, `at once ${i}`)));
    const places = (await Promise.all(runs.map((r) => place(r.id)))).map((p) => p.queue).sort((x, y) => x - y);
    expect(places.slice(1).map((p, i) => p - places[i]!)).toEqual([1, 2, 3, 4].map(() => QUEUE_SPACING_MS));
  });

  it('a tenant whose runs have all ended is placed at its start again', async () => {
    await sql(db.url, `UPDATE research_runs SET status = 'completed' WHERE tenant_id = '${OTHER}'`);
    const again = await place((await start(OTHER, 'after the others ended')).id);
    expect(again.queue).toBe(again.created);
  });
});

import { raceAtWrites, sql } from '@dossier/testing';
import { client, startGateway, type Gateway, type Reply } from './gateway-harness';

/**
 * Clients retrying, and several of them at once: requests that create the same thing meet at their writes
 * (`raceAtWrites` holds every request at its INSERT until all of them are there), then write together. One
 * thing is created, the others get it back, and nobody gets a 500 (docs/decisions/0012).
 */
const N = 4;

describe('gateway: racing requests that create the same thing', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let tenantId: string;

  beforeAll(async () => {
    gw = await startGateway();
    const t = await gw.tenant('racer');
    tenantId = t.id;
    api = client(gw.url, t.key);
    // Warm: the first request of a process pays for lazy set-up, which would only spread the racers out.
    expect((await api('GET', '/v1/runs')).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
  });

  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();

  it('POST /v1/runs with one Idempotency-Key: one run, one 201 and the others replay it (200)', async () => {
    const body = { question: 'Raced question about Lake Varen?' };
    // Held at the gateway's first look-up of the key, before any transaction: every request finds no run and
    // goes on to create one, so all but one lose at the unique key, whatever the timing after the release.
    const race = await raceAtWrites(
      gw.db.url,
      'research_runs',
      Array.from({ length: N }, () => () => api('POST', '/v1/runs', body, { 'idempotency-key': 'race-1' })),
      { atFirstRead: true },
    );
    expect(race.overlapped).toBe(true);
    const replies = race.results.map((r) => (r.status === 'fulfilled' ? r.value : ({ status: 0 } as Reply)));
    expect(statuses(replies)).toEqual([200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    const rows = await sql(gw.db.url, `SELECT id FROM research_runs WHERE tenant_id = $1 AND idempotency_key = 'race-1'`, [tenantId]);
    expect(rows).toHaveLength(1);
    // The losers' transactions rolled back whole: one genesis audit row, one run_created event.
    expect(
      await sql(gw.db.url, `SELECT seq FROM audit_events WHERE run_id = $1 AND kind = 'run_created'`, [replies[0]!.json.id]),
    ).toHaveLength(1);
  });

  it('POST /v1/collections with one name: one collection, exactly one 201', async () => {
    const race = await raceAtWrites(
      gw.db.url,
      'collections',
      Array.from({ length: N }, () => () => api('POST', '/v1/collections', { name: 'shared-shelf' })),
    );
    expect(race.overlapped).toBe(true);
    const replies = race.results.map((r) => (r.status === 'fulfilled' ? r.value : ({ status: 0 } as Reply)));
    expect(statuses(replies)).toEqual([200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    expect(await sql(gw.db.url, `SELECT id FROM collections WHERE tenant_id = $1 AND name = 'shared-shelf'`, [tenantId])).toHaveLength(1);
  });
});

import { sql, waitFor } from '@dossier/testing';
import { client, startGateway, uploadCorpus, type Gateway } from './gateway-harness';
import { readSse, type SseEvent } from './sse-client';

/**
 * Run events reach SSE clients by Postgres LISTEN/NOTIFY (RunEventFeed): the gateway runs no query while a run is
 * quiet, so an event can only reach a waiting stream through the notification of its commit.
 */
describe('gateway: live run events pushed by LISTEN/NOTIFY', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    ({ key } = await gw.tenant('live'));
    api = client(gw.url, key);
    await uploadCorpus(api, 'varen');
  });
  afterAll(async () => {
    await gw?.close();
  });

  const eventCount = async (runId: string): Promise<number> =>
    Number((await sql<{ n: string }>(gw.db.url, 'SELECT count(*) AS n FROM run_events WHERE run_id = $1', [runId]))[0]!.n);

  it('a stream waiting on a run parked at its gate gets the cancellation the moment it commits, then ends', async () => {
    const created = await api('POST', '/v1/runs', {
      question: 'How large was the drop in Lake Varen and what caused it?',
      options: { collection: 'varen', maxIterations: 1, gates: { plan: 'required', outline: 'auto', publish: 'auto' } },
    });
    const runId = created.json.id as string;
    await waitFor('the plan gate', async () => (await api('GET', `/v1/runs/${runId}`)).json.status === 'awaiting_approval');
    const before = await eventCount(runId);
    // The stream replays what exists, then waits; the cancel is sent once the replay is through.
    const stream = readSse(`${gw.url}/v1/runs/${runId}/events`, key, {
      onEvent: async (e) => {
        if (e.id === before) expect((await api('POST', `/v1/runs/${runId}/cancel`, { reason: 'live test' })).status).toBe(200);
      },
    });
    const { events, ended } = await stream;
    expect(ended).toBe('server');
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
    expect(events.length).toBeGreaterThan(before);
    expect(events.at(-1)!.event).toBe('run_cancelled');
  });

  it('a client that connects mid-run (at the plan gate) gets the earlier events, then the live ones, with no gap and no repeat', async () => {
    const created = await api('POST', '/v1/runs', {
      question: 'How large was the drop in Lake Varen and what caused it?',
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required', outline: 'auto', publish: 'auto' } },
    });
    const runId = created.json.id as string;
    await waitFor('the plan gate', async () => (await api('GET', `/v1/runs/${runId}`)).json.status === 'awaiting_approval');
    const before = await eventCount(runId);
    const approval = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items.find((a: { status: string }) => a.status === 'open');
    const { events, ended } = await readSse(`${gw.url}/v1/runs/${runId}/events`, key, {
      onEvent: async (e) => {
        if (e.id === before) expect((await api('POST', `/v1/approvals/${approval.id}`, { decision: 'approve' })).status).toBe(200);
      },
    });
    expect(ended).toBe('server');
    const ids = events.map((e: SseEvent) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(ids.length).toBeGreaterThan(before);
    expect(events.at(-1)!.event).toBe('run_completed');
    expect(ids.length).toBe(await eventCount(runId));
  });
});

import { waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';
import { readSse, type SseEvent } from './sse-client';

describe('gateway: gates through the API, and SSE reconnection with Last-Event-ID', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    ({ key } = await gw.tenant('gates'));
    api = client(gw.url, key);
    await uploadCorpus(api, 'varen');
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function openGate(runId: string, gate: string, revision: number): Promise<any> {
    let found: any;
    await waitFor(
      `gate ${gate} r${revision} open`,
      async () => {
        const list = await api('GET', `/v1/runs/${runId}/approvals`);
        found = list.json.items.find((a: any) => a.gate === gate && a.status === 'open' && a.revision >= revision);
        return Boolean(found);
      },
      { intervalMs: 100 },
    );
    return found;
  }

  it('reject the plan with feedback, see the new plan, approve; the outline gate likewise; the run completes', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: {
        collection: 'varen',
        perspectives: 2,
        maxIterations: 1,
        gates: { plan: 'required', outline: 'required', publish: 'auto' },
      },
    });
    expect(created.status).toBe(201);
    const runId = created.json.id;

    const plan0 = await openGate(runId, 'plan', 0);
    expect(plan0.subject.perspectives.length).toBe(2);
    expect(plan0.subject.questions.length).toBeGreaterThan(0);
    expect((await api('GET', `/v1/runs/${runId}`)).json).toMatchObject({ status: 'awaiting_approval', awaitingGate: 'plan' });
    // A decision must say why when it rejects; unknown fields are refused.
    expect((await api('POST', `/v1/approvals/${plan0.id}`, { decision: 'reject' })).status).toBe(400);
    expect((await api('POST', `/v1/approvals/${plan0.id}`, { decision: 'approve', extra: 1 })).status).toBe(400);
    const rejected = await api('POST', `/v1/approvals/${plan0.id}`, { decision: 'reject', feedback: "Add a regulator's perspective" });
    expect(rejected.status).toBe(200);
    expect(rejected.json).toMatchObject({ status: 'rejected', feedback: "Add a regulator's perspective", subject: null });
    // Deciding a closed gate again is a conflict.
    const twice = await api('POST', `/v1/approvals/${plan0.id}`, { decision: 'approve' });
    expect(twice.status).toBe(409);
    expect(twice.json.error).toBe('gate_not_open');

    const plan1 = await openGate(runId, 'plan', 1);
    expect(plan1.revision).toBe(1);
    const roles = (p: any) => p.subject.perspectives.map((x: any) => `${x.name} ${x.role}`).join(' | ');
    expect(roles(plan1)).not.toBe(roles(plan0));
    expect(roles(plan1)).toMatch(/regulat/i);
    expect((await api('POST', `/v1/approvals/${plan1.id}`, { decision: 'approve', comment: 'good' })).json.status).toBe('approved');

    const outline0 = await openGate(runId, 'outline', 0);
    expect(outline0.subject.sections.length).toBeGreaterThan(0);
    expect(
      (await api('POST', `/v1/approvals/${outline0.id}`, { decision: 'reject', feedback: 'Put the measurement disagreement first' }))
        .status,
    ).toBe(200);
    const outline1 = await openGate(runId, 'outline', 1);
    expect(outline1.revision).toBe(1);
    expect((await api('POST', `/v1/approvals/${outline1.id}`, { decision: 'approve' })).status).toBe(200);

    const stream = await readSse(`${gw.url}/v1/runs/${runId}/events`, key);
    const gateEvents = stream.events
      .filter((e) => e.event === 'gate_decided')
      .map((e) => `${e.data.data.gate}.${e.data.data.revision}.${e.data.data.decision}`);
    expect(gateEvents).toEqual(['plan.0.reject', 'plan.1.approve', 'outline.0.reject', 'outline.1.approve', 'publish.0.approve']);
    expect(stream.events.at(-1)!.event).toBe('run_completed');
    const audit = await api('GET', `/v1/runs/${runId}/audit`);
    expect(audit.json.verification.ok).toBe(true);
    expect(audit.json.events.filter((e: any) => e.kind === 'gate_decided').map((e: any) => e.actor)).toEqual(
      Array(4).fill(expect.stringMatching(/^gates-robot \(key [0-9a-f]{12}\)$/)),
    );
  });

  it('dropping the stream mid-run and reconnecting with Last-Event-ID loses nothing and repeats nothing', async () => {
    const created = await api('POST', '/v1/runs', {
      question: 'How large was the drop in Lake Varen and what caused it?',
      options: { collection: 'varen', perspectives: 2, maxIterations: 1 },
    });
    const runId = created.json.id;
    const url = `${gw.url}/v1/runs/${runId}/events`;
    const all: SseEvent[] = [];
    // Three connections: dropped after 3 events, dropped after 5 more (with a pause so events pile up meanwhile), then to the end.
    const first = await readSse(url, key, { until: (_, evs) => evs.length >= 3 });
    expect(first.ended).toBe('client');
    all.push(...first.events);
    await new Promise((r) => setTimeout(r, 300));
    const second = await readSse(url, key, { lastEventId: all.at(-1)!.id, until: (_, evs) => evs.length >= 5 });
    expect(second.ended).toBe('client');
    all.push(...second.events);
    await new Promise((r) => setTimeout(r, 500));
    const third = await readSse(url, key, { lastEventId: all.at(-1)!.id });
    expect(third.ended).toBe('server');
    all.push(...third.events);
    const ids = all.map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(all.at(-1)!.event).toBe('run_completed');
    // The union is exactly the durable log.
    const full = await readSse(url, key);
    expect(full.events.map((e) => [e.id, e.event])).toEqual(all.map((e) => [e.id, e.event]));
    // The query parameter works for clients that cannot set headers; past the end, the stream just ends.
    const tail = await fetch(`${url}?lastEventId=${ids.length - 2}`, { headers: { authorization: `Bearer ${key}` } });
    expect((await tail.text()).match(/^id: /gm)).toHaveLength(2);
    const none = await readSse(url, key, { lastEventId: ids.length });
    expect(none.events).toEqual([]);
    expect((await api('GET', `/v1/runs/${runId}/events`, undefined, { 'last-event-id': 'abc' })).status).toBe(400);
  });

  it('an intervention sent while the run waits at its plan gate is applied at the next loop boundary and audited', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required' } },
    });
    const runId = created.json.id;
    const plan = await openGate(runId, 'plan', 0);
    const queued = await api('POST', `/v1/runs/${runId}/interventions`, {
      type: 'add_question',
      question: 'How did the Brennmoor dam release schedule change?',
    });
    expect(queued.status).toBe(201);
    expect(queued.json.status).toBe('pending');
    expect((await api('POST', `/v1/approvals/${plan.id}`, { decision: 'approve' })).status).toBe(200);
    const stream = await readSse(`${gw.url}/v1/runs/${runId}/events`, key);
    expect(stream.events.at(-1)!.event).toBe('run_completed');
    const types = stream.events.map((e) => e.event);
    expect(types.indexOf('intervention_queued')).toBeGreaterThan(-1);
    expect(types.indexOf('intervention_applied')).toBeGreaterThan(types.indexOf('intervention_queued'));
    const listed = await api('GET', `/v1/runs/${runId}/interventions`);
    expect(listed.json.items).toEqual([
      expect.objectContaining({ id: queued.json.id, status: 'applied', appliedIteration: expect.any(Number) }),
    ]);
    const audit = await api('GET', `/v1/runs/${runId}/audit`);
    const kinds = audit.json.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toContain('intervention_queued');
    expect(kinds.some((k: string) => k.startsWith('intervention_applied'))).toBe(true);
    expect(audit.json.verification.ok).toBe(true);
    // Once the run is over, nothing can be queued any more.
    expect((await api('POST', `/v1/runs/${runId}/interventions`, { type: 'narrow_scope', scope: 'Only after 2020' })).status).toBe(409);
  });
});

import { RunView } from '@dossier/contracts';
import { sql, waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';
import { readSse } from './sse-client';

/** Issue 14: the run's mode and interview turns through the gateway, under the tenant's caps on analysts and turns. */
describe('gateway: --mode interviews and turn caps', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    ({ key } = await gw.tenant('panel', { caps: { perspectives: 2, interviewTurns: 2 } }));
    api = client(gw.url, key);
    await uploadCorpus(api, 'varen');
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('refuses turns beyond the cap (422, naming it) and a mode that does not exist (400)', async () => {
    const beyond = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', mode: 'interviews', interviewTurns: 3 },
    });
    expect(beyond.status).toBe(422);
    expect(beyond.json.details).toMatchObject({ cap: 'interviewTurns', limit: 2, requested: 3 });
    const unknown = await api('POST', '/v1/runs', { question: QUESTION, options: { collection: 'varen', mode: 'debate' } });
    expect(unknown.status).toBe(400);
  });

  it('an interviews run takes the caps as its defaults: two analysts, at most two turns each, a section per analyst', async () => {
    const created = await api('POST', '/v1/runs', { question: QUESTION, options: { collection: 'varen', mode: 'interviews' } });
    expect(created.status).toBe(201);
    const runId = created.json.id as string;
    const stream = await readSse(`${gw.url}/v1/runs/${runId}/events`, key);
    expect(stream.events.at(-1)!.event).toBe('run_completed');
    const run = RunView.parse((await api('GET', `/v1/runs/${runId}`)).json);
    expect(run.status).toBe('completed');
    const [stored] = await sql<{ options: { mode: string; interviewTurns: number; perspectives: number } }>(
      gw.db.url,
      'SELECT options FROM research_runs WHERE id = $1',
      [runId],
    );
    expect(stored!.options).toMatchObject({ mode: 'interviews', interviewTurns: 2, perspectives: 2 });
    const turns = await sql<{ shard: number; turn: number }>(gw.db.url, 'SELECT shard, turn FROM interview_turns WHERE run_id = $1', [
      runId,
    ]);
    expect([...new Set(turns.map((t) => t.shard))].sort()).toEqual([0, 1]);
    expect(Math.max(...turns.map((t) => t.turn))).toBeLessThanOrEqual(1);
    const report = (await api('GET', `/v1/runs/${runId}/report.json`)).json as { interviews: unknown[]; sections: { kind: string }[] };
    expect(report.interviews).toHaveLength(2);
  });

  it('the panel gate: rejected with "add a regulator\'s view", the new panel has a regulator, whose interview runs', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: {
        collection: 'varen',
        mode: 'interviews',
        interviewTurns: 1,
        gates: { plan: 'required', outline: 'auto', publish: 'auto' },
      },
    });
    expect(created.status).toBe(201);
    const runId = created.json.id as string;
    const gate = async (revision: number) => {
      let found: { id: string; subject: { perspectives: { name: string; role: string }[]; questions: unknown[] } } | undefined;
      await waitFor(
        `plan gate r${revision}`,
        async () => {
          const items = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items as (NonNullable<typeof found> & {
            gate: string;
            status: string;
            revision: number;
          })[];
          found = items.find((a) => a.gate === 'plan' && a.status === 'open' && a.revision >= revision);
          return Boolean(found);
        },
        { intervalMs: 100 },
      );
      return found!;
    };
    const plan0 = await gate(0);
    // In interviews mode the plan is the panel: no question graph.
    expect(plan0.subject.questions).toEqual([]);
    expect((await api('POST', `/v1/approvals/${plan0.id}`, { decision: 'reject', feedback: "Add a regulator's view" })).status).toBe(200);
    const plan1 = await gate(1);
    const regulator = plan1.subject.perspectives.findIndex((p) => /regulat/i.test(`${p.name} ${p.role}`));
    expect(regulator).toBeGreaterThanOrEqual(0);
    expect((await api('POST', `/v1/approvals/${plan1.id}`, { decision: 'approve' })).status).toBe(200);
    const stream = await readSse(`${gw.url}/v1/runs/${runId}/events`, key);
    expect(stream.events.at(-1)!.event).toBe('run_completed');
    const turns = await sql<{ role: string }>(
      gw.db.url,
      'SELECT p.role, p.name FROM interview_turns t JOIN perspectives p ON p.id = t.perspective_id WHERE t.run_id = $1',
      [runId],
    );
    expect(turns.some((t) => /regulat/i.test(JSON.stringify(t)))).toBe(true);
  });
});

import { ApprovalView, AuditView, ClaimView, ReportJson, RunList, RunView, SourceView } from '@dossier/contracts';
import { compactText, readPdf, sql } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';
import { readSse } from './sse-client';

describe('gateway: a run end to end over HTTP (real Postgres, Redis and stage workers)', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let key: string;
  let runId: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    ({ key } = await gw.tenant('acme'));
    api = client(gw.url, key);
    await uploadCorpus(api, 'varen');
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('creates a run, follows its SSE stream to completion with gap-free ids, and ends the stream', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1 },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/runs/${created.json.id}`);
    expect(created.json).toMatchObject({ question: QUESTION, status: 'running' });
    runId = created.json.id;
    const stream = await readSse(`${gw.url}/v1/runs/${runId}/events`, key);
    expect(stream.status).toBe(200);
    expect(stream.ended).toBe('server');
    expect(stream.events.map((e) => e.id)).toEqual(stream.events.map((_, i) => i + 1));
    expect(stream.events[0]!.event).toBe('run_created');
    expect(stream.events.at(-1)!.event).toBe('run_completed');
    expect(stream.events.every((e) => e.data.runId === runId && e.data.seq === e.id && e.data.data.type === e.event)).toBe(true);
    const run = await api('GET', `/v1/runs/${runId}`);
    expect(RunView.parse(run.json).status).toBe('completed');
    // Responses match the schemas the OpenAPI document publishes.
    RunList.parse((await api('GET', '/v1/runs')).json);
    ApprovalView.array().parse((await api('GET', `/v1/runs/${runId}/approvals`)).json.items);
  });

  it('serves the report in all three formats, by extension and by Accept', async () => {
    const md = await api('GET', `/v1/runs/${runId}/report.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(md.text).toMatch(/^# /);
    const html = await api('GET', `/v1/runs/${runId}/report`, undefined, { accept: 'text/html' });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toMatch(/<html/i);
    expect(html.text).not.toMatch(/<script/i);
    const json = await api('GET', `/v1/runs/${runId}/report.json`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const report = ReportJson.parse(json.json);
    expect(report.runId).toBe(runId);
    const byAccept = await api('GET', `/v1/runs/${runId}/report`, undefined, { accept: 'application/json;q=0.9, text/markdown;q=0.5' });
    expect(byAccept.json).toEqual(json.json);
    const refused = await api('GET', `/v1/runs/${runId}/report`, undefined, { accept: 'image/png' });
    expect(refused.status).toBe(406);
    expect(refused.json.error).toBe('not_acceptable');
  });

  it('serves report.pdf by extension and by Accept: its text holds every section title, citation number and source URL of report.json', async () => {
    const report = ReportJson.parse((await api('GET', `/v1/runs/${runId}/report.json`)).json);
    const get = (path: string, accept?: string) =>
      fetch(`${gw.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) } });
    const byExtension = await get(`/v1/runs/${runId}/report.pdf`);
    expect(byExtension.status).toBe(200);
    expect(byExtension.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await byExtension.arrayBuffer());
    const byAccept = await get(`/v1/runs/${runId}/report`, 'application/pdf');
    expect(byAccept.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await byAccept.arrayBuffer()).equals(bytes)).toBe(true);

    const text = compactText((await readPdf(bytes)).text);
    for (const section of report.sections) expect(text).toContain(compactText(section.title));
    const numbers = new Set(
      report.sections.flatMap((s) =>
        s.paragraphs.flatMap((p) =>
          p.sentences.flatMap((t) => t.evidenceIds.map((e) => report.sources[report.evidence[e]!.sourceId]!.number)),
        ),
      ),
    );
    expect(numbers.size).toBeGreaterThan(0);
    for (const n of numbers) expect(text).toContain(`[${n}]`);
    for (const source of Object.values(report.sources)) expect(text).toContain(compactText(source.url));
    // Another tenant's key gets a missing run, not the PDF.
    const { key: other } = await gw.tenant('other-pdf');
    const foreign = await fetch(`${gw.url}/v1/runs/${runId}/report.pdf`, { headers: { authorization: `Bearer ${other}` } });
    expect(foreign.status).toBe(404);
  });

  it('lists claims and sources of the run, and an audit log whose chain verifies (and stops verifying when altered)', async () => {
    const claims = await api('GET', `/v1/runs/${runId}/claims`);
    ClaimView.array().parse(claims.json.items);
    SourceView.array().parse((await api('GET', `/v1/runs/${runId}/sources`)).json.items);
    AuditView.parse((await api('GET', `/v1/runs/${runId}/audit`)).json);
    expect(claims.json.items.length).toBeGreaterThan(0);
    expect(claims.json.items[0].evidenceIds.length).toBeGreaterThan(0);
    const sources = await api('GET', `/v1/runs/${runId}/sources`);
    expect(sources.json.items.some((s: { selected: boolean }) => s.selected)).toBe(true);
    const audit = await api('GET', `/v1/runs/${runId}/audit`);
    expect(audit.json.verification).toEqual({ ok: true, rows: audit.json.events.length });
    expect(audit.json.events[0]).toMatchObject({ seq: 0, kind: 'run_created' });
    await sql(gw.db.url, `UPDATE audit_events SET actor = 'mallory' WHERE run_id = '${runId}' AND seq = 1`);
    const tampered = await api('GET', `/v1/runs/${runId}/audit`);
    expect(tampered.json.verification).toMatchObject({ ok: false, firstBadSeq: 1, reason: 'hash_mismatch' });
  });

  it('the same Idempotency-Key twice gives the same run (201 then 200), and only one row', async () => {
    const body = { question: 'Idempotent question about Lake Varen?', options: { collection: 'varen', maxIterations: 1 } };
    const first = await api('POST', '/v1/runs', body, { 'idempotency-key': 'abc-123' });
    const second = await api('POST', '/v1/runs', body, { 'idempotency-key': 'abc-123' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json.id).toBe(first.json.id);
    const reused = await api('POST', '/v1/runs', { ...body, question: 'A different question?' }, { 'idempotency-key': 'abc-123' });
    expect(reused.status).toBe(409);
    expect(reused.json.message).toMatch(/different request body/);
    const rows = await sql<{ n: string }>(gw.db.url, "SELECT count(*) AS n FROM research_runs WHERE idempotency_key = 'abc-123'");
    expect(Number(rows[0]!.n)).toBe(1);
    const cancelled = await api('POST', `/v1/runs/${first.json.id}/cancel`, { reason: 'test done' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe('cancelled');
    const again = await api('POST', `/v1/runs/${first.json.id}/cancel`, {});
    expect(again.status).toBe(200);
    const resumeCompleted = await api('POST', `/v1/runs/${runId}/resume`, {});
    expect(resumeCompleted.status).toBe(409);
    expect(resumeCompleted.json.error).toBe('run_state_conflict');
  });
});

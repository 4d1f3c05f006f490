import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from '@dossier/testing';
import { client, EXAMPLES, startGateway, type Gateway } from './gateway-harness';

/**
 * Tenant isolation, table-driven over every endpoint that names a resource: tenant A's key gets 404 for
 * each of tenant B's resources (the same answer as for an id that exists nowhere), B's resources are left
 * as they were, and B's runs and collections never appear in A's lists. B's own key is the control: it
 * reaches every one of them.
 */
describe('gateway: tenant isolation', () => {
  let gw: Gateway;
  let a: ReturnType<typeof client>;
  let b: ReturnType<typeof client>;
  const ids = { run: '', approval: '', collection: '', share: '' };

  beforeAll(async () => {
    gw = await startGateway();
    a = client(gw.url, (await gw.tenant('tenant-a')).key);
    const tb = await gw.tenant('tenant-b');
    b = client(gw.url, tb.key);
    ids.run = (await b('POST', '/v1/runs', { question: "B's private question?", options: { gates: { plan: 'required' } } })).json.id;
    ids.collection = (await b('POST', '/v1/collections', { name: 'b-private' })).json.id;
    await b('POST', `/v1/collections/${ids.collection}/documents`, {
      filename: 'enc.md',
      content: readFileSync(path.join(EXAMPLES, 'encyclopedia-lake-varen.md'), 'utf8'),
    });
    // B's run waits at its plan gate and has a report (written as the stages would, without hosting them here).
    const [row] = await sql<{ id: string }>(
      gw.db.url,
      `INSERT INTO approval_decisions (id, tenant_id, run_id, gate, revision, status) VALUES (gen_random_uuid(), '${tb.id}', '${ids.run}', 'plan', 0, 'open') RETURNING id`,
    );
    ids.approval = row!.id;
    await sql(gw.db.url, `UPDATE research_runs SET status = 'awaiting_approval', awaiting_gate = 'plan' WHERE id = '${ids.run}'`);
    // And a share link (made as the share route would; the route itself wants a completed run).
    const [share] = await sql<{ id: string }>(
      gw.db.url,
      `INSERT INTO report_shares (id, tenant_id, run_id, prefix, secret_hash, created_by, expires_at)
       VALUES (gen_random_uuid(), '${tb.id}', '${ids.run}', 'b0b0b0b0b0b0', repeat('0', 64), 'b', now() + interval '1 day') RETURNING id`,
    );
    ids.share = share!.id;
    for (const [format, content] of [
      ['md', '# B'],
      ['html', '<html>B</html>'],
      ['json', '{"b":1}'],
    ]) {
      await sql(
        gw.db.url,
        `INSERT INTO report_artifacts (id, tenant_id, run_id, format, content) VALUES (gen_random_uuid(), '${tb.id}', '${ids.run}', '${format}', '${content}')`,
      );
    }
  });
  afterAll(async () => {
    await gw?.close();
  });

  const R = () => ids.run;
  const table: { name: string; method: string; url: () => string; body?: unknown; mutates?: boolean }[] = [
    { name: 'get run', method: 'GET', url: () => `/v1/runs/${R()}` },
    { name: 'events', method: 'GET', url: () => `/v1/runs/${R()}/events` },
    { name: 'approvals', method: 'GET', url: () => `/v1/runs/${R()}/approvals` },
    { name: 'report (Accept)', method: 'GET', url: () => `/v1/runs/${R()}/report` },
    { name: 'report.md', method: 'GET', url: () => `/v1/runs/${R()}/report.md` },
    { name: 'report.html', method: 'GET', url: () => `/v1/runs/${R()}/report.html` },
    { name: 'report.json', method: 'GET', url: () => `/v1/runs/${R()}/report.json` },
    { name: 'claims', method: 'GET', url: () => `/v1/runs/${R()}/claims` },
    { name: 'sources', method: 'GET', url: () => `/v1/runs/${R()}/sources` },
    { name: 'audit', method: 'GET', url: () => `/v1/runs/${R()}/audit` },
    { name: 'interventions', method: 'GET', url: () => `/v1/runs/${R()}/interventions` },
    { name: 'collection', method: 'GET', url: () => `/v1/collections/${ids.collection}` },
    { name: 'share links', method: 'GET', url: () => `/v1/runs/${R()}/shares` },
    { name: 'share', method: 'POST', url: () => `/v1/runs/${R()}/shares`, body: {}, mutates: true },
    { name: 'revoke share', method: 'POST', url: () => `/v1/runs/${R()}/shares/${ids.share}/revoke`, body: {}, mutates: true },
    { name: 'follow up', method: 'POST', url: () => `/v1/runs/${R()}/follow-ups`, body: { question: 'And then?' }, mutates: true },
    { name: 'decide gate', method: 'POST', url: () => `/v1/approvals/${ids.approval}`, body: { decision: 'approve' }, mutates: true },
    { name: 'cancel', method: 'POST', url: () => `/v1/runs/${R()}/cancel`, body: {}, mutates: true },
    { name: 'resume', method: 'POST', url: () => `/v1/runs/${R()}/resume`, body: {}, mutates: true },
    {
      name: 'intervene',
      method: 'POST',
      url: () => `/v1/runs/${R()}/interventions`,
      body: { type: 'add_question', question: 'What about evaporation?' },
      mutates: true,
    },
    {
      name: 'upload',
      method: 'POST',
      url: () => `/v1/collections/${ids.collection}/documents`,
      body: { filename: 'x.md', content: '# Injected\n\nA paragraph from the wrong tenant.' },
      mutates: true,
    },
  ];

  it.each(table)("A's key gets 404 for B's resource: $name", async ({ method, url, body }) => {
    const res = await a(method, url(), body);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('not_found');
    // Indistinguishable from an id that exists nowhere.
    const nowhere = await a(
      method,
      url().replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, '00000000-0000-4000-8000-0000000000ff'),
      body,
    );
    expect(nowhere.status).toBe(404);
    expect(nowhere.json.error).toBe(res.json.error);
  });

  it("B's resources are untouched by A's attempts, and B's own key reaches each of them", async () => {
    const [run] = await sql<{ status: string }>(gw.db.url, `SELECT status FROM research_runs WHERE id = '${ids.run}'`);
    expect(run!.status).toBe('awaiting_approval');
    const [approval] = await sql<{ status: string }>(gw.db.url, `SELECT status FROM approval_decisions WHERE id = '${ids.approval}'`);
    expect(approval!.status).toBe('open');
    const docs = await sql<{ n: string }>(gw.db.url, `SELECT count(*) AS n FROM documents WHERE collection_id = '${ids.collection}'`);
    expect(Number(docs[0]!.n)).toBe(1);
    const shares = await sql<{ revoked_at: Date | null }>(gw.db.url, `SELECT revoked_at FROM report_shares WHERE run_id = '${ids.run}'`);
    expect(shares).toEqual([{ revoked_at: null }]);
    expect(await sql(gw.db.url, `SELECT 1 FROM collections WHERE name LIKE 'sources of run %'`)).toEqual([]);
    for (const row of table.filter((r) => !r.mutates && r.name !== 'events' && r.name !== 'interventions')) {
      const res = await b(row.method, row.url(), row.body);
      expect({ name: row.name, status: res.status }).toEqual({ name: row.name, status: 200 });
    }
    expect((await b('POST', `/v1/approvals/${ids.approval}`, { decision: 'reject', feedback: 'not yet' })).status).not.toBe(404);
  });

  it("B's runs and collections never appear in A's lists", async () => {
    await a('POST', '/v1/runs', { question: "A's own question?" });
    await a('POST', '/v1/collections', { name: 'b-private' });
    for (const status of ['', '?status=awaiting_approval', '?status=running', '?limit=100']) {
      const list = await a('GET', `/v1/runs${status}`);
      expect(list.status).toBe(200);
      expect(list.json.items.map((r: { id: string }) => r.id)).not.toContain(ids.run);
      expect(list.json.items.every((r: { question: string }) => !r.question.startsWith("B's"))).toBe(true);
    }
    const collections = await a('GET', '/v1/collections');
    expect(collections.json.items).toHaveLength(1);
    expect(collections.json.items[0].id).not.toBe(ids.collection);
    expect(collections.json.items[0].documents).toBe(0);
  });
});

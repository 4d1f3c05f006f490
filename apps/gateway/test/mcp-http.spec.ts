import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReportJson } from '@dossier/contracts';
import { ApiKeyRepository } from '@dossier/db';
import { MCP_TOOLS } from '@dossier/mcp';
import { callTool, connectMcp } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';

/** An SDK client on the gateway's `/mcp`, authenticated with `key` (or with none). */
function connect(gw: Gateway, key?: string): Promise<Client> {
  return connectMcp(
    new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
      requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
    }),
  );
}

describe('gateway /mcp: Streamable HTTP with the tenant API key (real Postgres, Redis and stage workers)', () => {
  let gw: Gateway;
  let key: string;
  let mcp: Client;
  let runId: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    ({ key } = await gw.tenant('acme'));
    mcp = await connect(gw, key);
  });
  afterAll(async () => {
    await mcp?.close();
    await gw?.close();
  });

  it('lists the seven tools; without a valid key there is no session at all', async () => {
    expect((await mcp.listTools()).tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    await expect(connect(gw)).rejects.toThrow(/401|API key/);
    await expect(connect(gw, 'dsk_nope_nope')).rejects.toThrow(/401|not valid/);
    for (const method of ['GET', 'DELETE']) {
      const refused = await client(gw.url, key)(method, '/mcp');
      expect({ method, status: refused.status, allow: refused.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
    }
  });

  it('researches the example corpus: progress, the plan gate approved, the report fetched and searched', async () => {
    await uploadCorpus(client(gw.url, key), 'varen');
    const listed = await callTool(mcp, 'list_collections', {});
    expect(listed.json.items).toEqual([expect.objectContaining({ name: 'varen' })]);

    const started = await callTool(mcp, 'start_research', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required' } },
      waitSeconds: 600,
    });
    expect(started.isError).toBe(false);
    runId = started.json.run.id;
    expect(started.json.run.awaitingGate).toBe('plan');
    expect(started.json.openGate.subject).toBeDefined();
    expect(started.progress.some((p) => p.message?.includes('gate plan is open'))).toBe(true);

    let state = await callTool(mcp, 'approve_gate', { runId, gate: 'plan', decision: { decision: 'approve' }, waitSeconds: 600 });
    expect(state.isError).toBe(false);
    expect(state.progress.length).toBeGreaterThan(0);
    while (state.json.run.status !== 'completed' && state.json.run.status !== 'failed') {
      state = await callTool(mcp, 'get_run', { runId, waitSeconds: 600 });
    }
    expect(state.json.run.status).toBe('completed');

    const report = ReportJson.parse((await callTool(mcp, 'get_report', { runId, format: 'json' })).json);
    expect(report.runId).toBe(runId);
    expect((await callTool(mcp, 'get_report', { runId })).text).toMatch(/^# /);
    const found = await callTool(mcp, 'search_evidence', { runId, query: 'water level' });
    expect(found.json.items.length).toBeGreaterThan(0);
    expect(Object.keys(report.claims)).toContain(found.json.items[0].claimId);
  });

  it('malformed input is a tool error; the endpoint keeps serving', async () => {
    expect((await callTool(mcp, 'approve_gate', { runId, gate: 'nope', decision: { decision: 'approve' } })).isError).toBe(true);
    expect((await callTool(mcp, 'add_document', { collection: 'varen', filename: '../../etc/passwd', content: 'x' })).isError).toBe(true);
    const decided = await callTool(mcp, 'approve_gate', { runId, gate: 'plan', decision: { decision: 'approve' }, waitSeconds: 0 });
    expect(decided.isError).toBe(true);
    expect(decided.text).toMatch(/not open/);
    expect((await callTool(mcp, 'get_run', { runId })).isError).toBe(false);
  });

  it("the tenant's rate limit counts /mcp and every /v1 call a tool makes", async () => {
    // Burst 6. Connecting takes three requests (initialize, the `initialized` notification, the SDK's GET for a
    // notification stream: 405). Each list_collections is a POST to /mcp and a GET of /v1/collections.
    const { key: chattyKey } = await gw.tenant('chatty', { rateLimit: { perSecond: 0.01, burst: 6 } });
    const chatty = await connect(gw, chattyKey);
    try {
      expect((await callTool(chatty, 'list_collections', {})).isError).toBe(false);
      // Its POST is the 6th request: admitted; its /v1 call, the 7th, is refused, and the tool says so.
      const second = await callTool(chatty, 'list_collections', {});
      expect(second.isError).toBe(true);
      expect(second.text).toMatch(/rate limit/i);
      await expect(callTool(chatty, 'list_collections', {})).rejects.toThrow(/rate_limited/);
    } finally {
      await chatty.close();
    }
  });

  it("a viewer key reads through the tools; the tools that change something are refused by /v1's role check", async () => {
    const tenantId = (await gw.app.get(ApiKeyRepository).verify(key))!.tenantId;
    const { key: viewerKey } = await gw.app.get(ApiKeyRepository).create(tenantId, 'auditor', 'viewer');
    const viewer = await connect(gw, viewerKey);
    try {
      expect((await callTool(viewer, 'get_run', { runId })).json.run.status).toBe('completed');
      expect(ReportJson.parse((await callTool(viewer, 'get_report', { runId, format: 'json' })).json).runId).toBe(runId);
      expect((await callTool(viewer, 'list_collections', {})).json.items).toEqual([expect.objectContaining({ name: 'varen' })]);
      const runs = (await client(gw.url, key)('GET', '/v1/runs')).json.items.length;
      const collection = JSON.stringify((await client(gw.url, key)('GET', '/v1/collections')).json);
      for (const [tool, args] of [
        ['start_research', { question: 'May a viewer start research?' }],
        ['add_document', { collection: 'varen', filename: 'viewer.md', content: '# A viewer wrote this' }],
      ] as const) {
        const answer = await callTool(viewer, tool, args);
        expect({ tool, isError: answer.isError, refused: /viewer/.test(answer.text) }).toEqual({ tool, isError: true, refused: true });
      }
      // Nothing was changed: no run started, no document added.
      expect((await client(gw.url, key)('GET', '/v1/runs')).json.items.length).toBe(runs);
      expect(JSON.stringify((await client(gw.url, key)('GET', '/v1/collections')).json)).toBe(collection);
    } finally {
      await viewer.close();
    }
  });

  it("another tenant's key sees none of it", async () => {
    const { key: otherKey } = await gw.tenant('other');
    const other = await connect(gw, otherKey);
    try {
      expect((await callTool(other, 'list_collections', {})).json.items).toEqual([]);
      for (const [tool, args] of [
        ['get_run', { runId }],
        ['get_report', { runId, format: 'json' }],
        ['search_evidence', { runId, query: 'water' }],
        ['approve_gate', { runId, gate: 'publish', decision: { decision: 'approve' } }],
      ] as const) {
        const answer = await callTool(other, tool, args);
        expect({ tool, isError: answer.isError }).toEqual({ tool, isError: true });
        expect(answer.text).not.toContain(QUESTION);
      }
    } finally {
      await other.close();
    }
  });
});

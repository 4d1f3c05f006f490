import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReportJson } from '@dossier/contracts';
import { MCP_TOOLS } from '@dossier/mcp';
import { callTool, connectMcp, createTestDatabase, uniquePrefix, type TestDatabase } from '@dossier/testing';
import { CLI, EXAMPLES } from './cli-harness';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const FILES = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'timeline-lake-varen-2014-2025.md',
];
const REPO = path.resolve(__dirname, '../../..');

/** `dossier mcp` in its own process (local mode) as tenant `tenant`, with an SDK client on its stdio. */
async function connect(db: TestDatabase, prefix: string, tenant: string): Promise<Client> {
  return connectMcp(
    new StdioClientTransport({
      command: process.execPath,
      args: ['-r', path.join(REPO, 'tools/ts-register.cjs'), CLI, 'mcp'],
      cwd: REPO,
      env: {
        ...(process.env as Record<string, string>),
        DATABASE_URL: db.url,
        QUEUE_PREFIX: prefix,
        VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-vectors-')),
        DOSSIER_TENANT: tenant,
        LOG_LEVEL: 'warn',
        OTEL_SDK_DISABLED: 'true',
      },
      stderr: 'pipe',
    }),
  );
}

describe('dossier mcp over stdio (an SDK client, the local engine in the server process)', () => {
  let db: TestDatabase;
  let client: Client;
  let runId: string;
  const prefix = uniquePrefix('mcp');

  beforeAll(async () => {
    db = await createTestDatabase();
    client = await connect(db, prefix, 'acme');
  });
  afterAll(async () => {
    await client?.close();
    await db?.drop();
  });

  it('lists the seven tools, each with an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const start = tools.find((t) => t.name === 'start_research')!;
    expect(start.inputSchema.required).toEqual(['question']);
  });

  it('adds documents to a collection and lists it', async () => {
    for (const file of FILES) {
      const added = await callTool(client, 'add_document', {
        collection: 'varen',
        filename: file,
        content: readFileSync(path.join(EXAMPLES, 'corpus', file), 'utf8'),
      });
      expect(added.isError).toBe(false);
      expect(added.json.ingested).toBe(1);
    }
    const listed = await callTool(client, 'list_collections', {});
    expect(listed.json.items).toEqual([expect.objectContaining({ name: 'varen', documents: FILES.length })]);
  });

  it('starts a research with progress notifications, stops at the plan gate, approves it, and the run completes', async () => {
    const started = await callTool(client, 'start_research', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required' } },
      waitSeconds: 600,
    });
    expect(started.isError).toBe(false);
    runId = started.json.run.id;
    expect(started.json.run.awaitingGate).toBe('plan');
    expect(started.json.openGate).toMatchObject({ gate: 'plan', status: 'open' });
    expect(started.progress.length).toBeGreaterThan(0);
    expect(started.progress.some((p) => p.message?.includes('gate plan is open'))).toBe(true);
    const values = started.progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));

    let state = await callTool(client, 'approve_gate', { runId, gate: 'plan', decision: { decision: 'approve' }, waitSeconds: 600 });
    expect(state.isError).toBe(false);
    // Progress lines name each step by its label from the node table ("Render").
    expect(state.progress.some((p) => /render/i.test(p.message ?? ''))).toBe(true);
    while (state.json.run.status !== 'completed' && state.json.run.status !== 'failed') {
      state = await callTool(client, 'get_run', { runId, waitSeconds: 600 });
    }
    expect(state.json.run.status).toBe('completed');
    expect(state.json.next).toMatch(/get_report/);
  });

  it('fetches the report as Markdown and JSON, and searches its claims and evidence', async () => {
    const md = await callTool(client, 'get_report', { runId });
    expect(md.text).toMatch(/^# /);
    const json = await callTool(client, 'get_report', { runId, format: 'json' });
    const report = ReportJson.parse(json.json);
    expect(report.runId).toBe(runId);
    const found = await callTool(client, 'search_evidence', { runId, query: 'water level decline', limit: 5 });
    expect(found.isError).toBe(false);
    expect(found.json.items.length).toBeGreaterThan(0);
    const first = found.json.items[0];
    expect(report.claims[first.claimId]?.text).toBe(first.claim);
    expect(first.evidence[0].excerpt).toBe(report.evidence[first.evidence[0].id]!.excerpt);
    expect(Object.values(report.sources).map((s) => s.url)).toContain(first.evidence[0].source.url);
  });

  it('malformed input and unknown runs are tool errors; the server keeps serving', async () => {
    const bad = await callTool(client, 'start_research', { question: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/question/);
    const extra = await callTool(client, 'get_run', { runId, surprise: true });
    expect(extra.isError).toBe(true);
    const notUuid = await callTool(client, 'get_report', { runId: 'not-a-run' });
    expect(notUuid.isError).toBe(true);
    const missing = await callTool(client, 'get_run', { runId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/not found/i);
    const unknownTool = await client.callTool({ name: 'drop_tables', arguments: {} }).then(
      (r) => r.isError === true,
      () => true,
    );
    expect(unknownTool).toBe(true);
    expect((await callTool(client, 'list_collections', {})).isError).toBe(false);
  });

  it("another tenant's server sees none of it", async () => {
    const other = await connect(db, prefix, 'other');
    try {
      const listed = await callTool(other, 'list_collections', {});
      // A tool error's text says why (it was once Postgres out of connections): shown, not an undefined `json`.
      expect({ isError: listed.isError, text: listed.isError ? listed.text : '' }).toEqual({ isError: false, text: '' });
      expect(listed.json.items).toEqual([]);
      for (const [tool, args] of [
        ['get_run', { runId }],
        ['get_report', { runId }],
        ['search_evidence', { runId, query: 'water' }],
        ['approve_gate', { runId, gate: 'plan', decision: { decision: 'approve' } }],
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

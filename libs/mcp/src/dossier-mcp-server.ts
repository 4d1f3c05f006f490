import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DossierClient } from '@dossier/client';
import { ReportJson, type RunView } from '@dossier/contracts';
import { followRun, type ProgressChannel } from './follow-run';
import { searchEvidence } from './search-evidence';
import {
  AddDocumentInput,
  ApproveGateInput,
  GetReportInput,
  GetRunInput,
  ListCollectionsInput,
  SearchEvidenceInput,
  StartResearchInput,
} from './tool-inputs';

export const MCP_TOOLS = [
  'start_research',
  'get_run',
  'approve_gate',
  'get_report',
  'search_evidence',
  'list_collections',
  'add_document',
] as const;

const DEFAULT_WAIT_S = 50;

interface Extra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message: string };
  }): Promise<void>;
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

function channel(extra: Extra): ProgressChannel {
  return {
    signal: extra.signal,
    progressToken: extra._meta?.progressToken,
    notify: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
  };
}

/** The run, its open gate (with what it asks to approve) and what to do next, as a tool answers it. */
async function runState(client: DossierClient, run: RunView): Promise<CallToolResult> {
  const open = run.awaitingGate
    ? (await client.approvals(run.id)).find((a) => a.status === 'open' && a.gate === run.awaitingGate)
    : undefined;
  const next =
    run.status === 'completed'
      ? 'The report is ready: get_report or search_evidence.'
      : open
        ? `Gate ${open.gate} waits: approve_gate with decision approve (or reject with feedback).`
        : run.status === 'failed' || run.status === 'cancelled'
          ? `The run ${run.status}.`
          : 'Still running: get_run with waitSeconds to follow it.';
  return json({ run, ...(open ? { openGate: open } : {}), next });
}

/**
 * Dossier as an MCP server: seven tools written once over `DossierClient`, so the same server runs in
 * `dossier mcp` (stdio; the local engine or `--api`) and behind the gateway's `/mcp` (an `HttpClient` on the
 * caller's own key, so every tool call is a `/v1` call under that tenant's policy and rate limit). Inputs are
 * the `/v1` contracts; an error (a bad id, another tenant's run, a run without a report) is a tool error with
 * the message the API gives, never a crash of the server.
 */
export function createDossierMcpServer(client: DossierClient, info: { version: string }): McpServer {
  const server = new McpServer(
    { name: 'dossier', version: info.version },
    {
      instructions:
        'Dossier researches a question over a private corpus or the web and writes a cited, verified report. start_research, ' +
        'then follow with get_run, answer gates with approve_gate, and read the result with get_report and search_evidence.',
    },
  );

  server.registerTool(
    'start_research',
    {
      title: 'Start a research run',
      description:
        'Starts researching a question (options as POST /v1/runs: collection, searchProviders, engine, gates, budgets…). ' +
        'Follows the run with progress notifications until a gate opens, it ends, or waitSeconds pass; returns the run id and state.',
      inputSchema: StartResearchInput,
    },
    async ({ question, options, waitSeconds }, extra) => {
      const run = await client.start(question, options ?? {});
      return runState(client, await followRun(client, run.id, (waitSeconds ?? DEFAULT_WAIT_S) * 1000, channel(extra), { fromStart: true }));
    },
  );

  server.registerTool(
    'get_run',
    {
      title: 'A run: status and progress',
      description: "A run's status, current step, counters, open gate (with the plan or outline it shows) and what to do next.",
      inputSchema: GetRunInput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId, waitSeconds }, extra) => runState(client, await followRun(client, runId, (waitSeconds ?? 0) * 1000, channel(extra))),
  );

  server.registerTool(
    'approve_gate',
    {
      title: 'Decide an open gate',
      description:
        'Approves the open plan, outline or publish gate (optionally with an edited plan or outline), or rejects it with feedback; ' +
        'then follows the run like start_research.',
      inputSchema: ApproveGateInput,
    },
    async ({ runId, gate, decision, waitSeconds }, extra) => {
      await client.decide(runId, gate, decision);
      return runState(client, await followRun(client, runId, (waitSeconds ?? DEFAULT_WAIT_S) * 1000, channel(extra)));
    },
  );

  server.registerTool(
    'get_report',
    {
      title: "A finished run's report",
      description: 'The report as Markdown (md) or as report.json, the claims graph with evidence and sources (json).',
      inputSchema: GetReportInput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId, format }) => ({ content: [{ type: 'text', text: (await client.report(runId, format)).toString('utf8') }] }),
  );

  server.registerTool(
    'search_evidence',
    {
      title: "Search a finished run's claims and evidence",
      description:
        'The claims of a finished run that match the words, best first, each with its status, evidence excerpts and their sources.',
      inputSchema: SearchEvidenceInput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId, query, limit }) => {
      // Our own API's answer, still parsed: the tool promises the contract's shape.
      const report = ReportJson.parse(JSON.parse((await client.report(runId, 'json')).toString('utf8')));
      return json({ runId, query, items: searchEvidence(report, query, limit) });
    },
  );

  server.registerTool(
    'list_collections',
    {
      title: 'Private collections',
      description: "The tenant's document collections, with their document counts (start_research options.collection).",
      inputSchema: ListCollectionsInput,
      annotations: { readOnlyHint: true },
    },
    async () => json({ items: await client.collections() }),
  );

  server.registerTool(
    'add_document',
    {
      title: 'Add a document to a collection',
      description: 'Ingests one document (md, txt, html as text; pdf as base64) into a collection, created if missing.',
      inputSchema: AddDocumentInput,
    },
    async ({ collection, filename, content, encoding }) =>
      json(await client.addDocument(collection, { filename, content, encoding: encoding ?? 'utf8' })),
  );

  return server;
}

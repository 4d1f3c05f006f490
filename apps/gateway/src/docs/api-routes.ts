import { z } from 'zod';
import {
  ApiErrorBody,
  ApprovalDecision,
  ApprovalView,
  CapabilitiesView,
  AuditView,
  CancelRunBody,
  ClaimView,
  CollectionView,
  CreateCollectionBody,
  CreateRunBody,
  CreateShareBody,
  FollowUpBody,
  CreatedShareView,
  SharedReportView,
  ShareIdParams,
  ShareView,
  InterventionInput,
  ImportedRunView,
  Intervention,
  ListRunsQuery,
  MeView,
  NodeList,
  ReplayRunBody,
  RunArchiveExport,
  RunActivityView,
  RunArchiveFile,
  RunList,
  RunView,
  SourceTextParams,
  SourceTextView,
  SourceView,
  UploadDocumentBody,
  UploadResult,
} from '@dossier/contracts';
import { EventsQuery } from '../events/events.controller';

export interface ApiRoute {
  method: 'get' | 'post';
  /** OpenAPI path template. */
  path: string;
  summary: string;
  /** The JSON body; every body is JSON (anything else is a 415) unless `multipart` says so too. */
  body?: z.ZodType;
  /** Also takes multipart/form-data with one file part. */
  multipart?: boolean;
  query?: z.ZodType;
  /** Path parameters, all uuids unless `paramSchema` says otherwise. */
  params?: string[];
  paramSchema?: z.ZodType;
  headers?: Record<string, { description: string; required?: boolean }>;
  ok: { status: number; schema?: z.ZodType; mediaTypes?: string[]; description: string };
  /** The 4xx statuses this route answers besides the ones every /v1 route has (400, 401, 404, 413, 415, 429). */
  errors?: number[];
  auth?: boolean;
}

const list = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item) });

/**
 * Every route of the API, described once with the zod schemas its handler validates with. The OpenAPI
 * document is generated from this table, and a test checks that the table and the router agree.
 */
export const API_ROUTES: ApiRoute[] = [
  {
    method: 'get',
    path: '/v1/me',
    summary:
      "Who the key acts for: principal, role, tenant, and the tenant's effective policy (allowed engines and providers, caps, forced gates)",
    ok: { status: 200, schema: MeView, description: 'The caller' },
  },
  {
    method: 'get',
    path: '/v1/nodes',
    summary: "The workflow's nodes: name, label, phase, one-line description, service and whether it fans out (the timeline's labels)",
    ok: { status: 200, schema: NodeList, description: 'The node table' },
  },
  {
    method: 'get',
    path: '/v1/capabilities',
    summary: 'The engines and search providers this deployment is configured for (any key); with /v1/me, what a run may use and can run',
    ok: { status: 200, schema: CapabilitiesView, description: 'Each engine and provider, available or why not' },
  },
  {
    method: 'post',
    path: '/v1/runs',
    summary: 'Start a research run (under the tenant policy)',
    body: CreateRunBody,
    headers: {
      'Idempotency-Key': { description: 'The same key from the same tenant returns the run it first created (200 instead of 201)' },
    },
    ok: { status: 201, schema: RunView, description: 'The new run (200: the run an earlier request with this Idempotency-Key created)' },
    errors: [409, 422],
  },
  {
    method: 'get',
    path: '/v1/runs',
    summary: "List the tenant's runs, newest first (cursor pagination)",
    query: ListRunsQuery,
    ok: { status: 200, schema: RunList, description: 'A page of runs' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}',
    summary: 'One run',
    params: ['id'],
    ok: { status: 200, schema: RunView, description: 'The run' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/events',
    summary: "The run's events as Server-Sent Events (id = seq; resumes after Last-Event-ID)",
    params: ['id'],
    query: EventsQuery,
    headers: { 'Last-Event-ID': { description: 'Resume after this seq (no gap, no duplicate)' } },
    ok: {
      status: 200,
      mediaTypes: ['text/event-stream'],
      description: 'The event stream; it ends when the run is terminal and every event was sent',
    },
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/cancel',
    summary: 'Cancel a running or waiting run',
    params: ['id'],
    body: CancelRunBody,
    ok: { status: 200, schema: RunView, description: 'The cancelled run' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/resume',
    summary: 'Resume a failed or cancelled run where it stopped',
    params: ['id'],
    body: z.strictObject({}),
    ok: { status: 200, schema: RunView, description: 'The resumed run' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/replay',
    summary: 'Start a new run that replays this finished run from its recording, with no network (live from the node `from` on)',
    params: ['id'],
    body: ReplayRunBody,
    ok: { status: 201, schema: RunView, description: 'The replaying run' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/archive',
    summary: 'The finished run with its recording as an archive file (gzip JSON, base64), for POST /v1/runs/import elsewhere',
    params: ['id'],
    ok: { status: 200, schema: RunArchiveExport, description: 'The archive and the size of its recording' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/v1/runs/import',
    summary: "Add a run archive as a new, finished run of this tenant (reports and recording), its options within the tenant's policy",
    body: RunArchiveFile,
    ok: { status: 201, schema: ImportedRunView, description: "The imported run, and which options the tenant's policy changed" },
    errors: [422],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/approvals',
    summary: "The run's gates (open ones with what they ask to approve)",
    params: ['id'],
    ok: { status: 200, schema: list(ApprovalView), description: 'Gate decisions' },
  },
  {
    method: 'post',
    path: '/v1/approvals/{id}',
    summary: 'Approve (optionally with the edited plan or outline, in the shape the gate showed it), or reject with feedback, an open gate',
    params: ['id'],
    body: ApprovalDecision,
    ok: { status: 200, schema: ApprovalView, description: 'The decided gate' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/interventions',
    summary: 'Steer a running research loop (applied at the next loop boundary; audited)',
    params: ['id'],
    body: InterventionInput,
    ok: { status: 201, schema: Intervention, description: 'The queued intervention' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/interventions',
    summary: "The run's interventions",
    params: ['id'],
    ok: { status: 200, schema: list(Intervention), description: 'Interventions' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/report',
    summary: 'The report, in the format the Accept header asks for (text/markdown, text/html, application/json, application/pdf)',
    params: ['id'],
    ok: { status: 200, mediaTypes: ['text/markdown', 'text/html', 'application/json', 'application/pdf'], description: 'The report' },
    errors: [406, 409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/report.md',
    summary: 'The report as Markdown',
    params: ['id'],
    ok: { status: 200, mediaTypes: ['text/markdown'], description: 'report.md' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/report.html',
    summary: 'The report as sanitized, self-contained HTML',
    params: ['id'],
    ok: { status: 200, mediaTypes: ['text/html'], description: 'report.html' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/report.json',
    summary: 'The report as JSON (claims graph)',
    params: ['id'],
    ok: { status: 200, mediaTypes: ['application/json'], description: 'report.json' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/report.pdf',
    summary: 'The report as PDF: title page, sections with numbered citations, disagreements, sources with links, method',
    params: ['id'],
    ok: { status: 200, mediaTypes: ['application/pdf'], description: 'report.pdf' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/claims',
    summary: "The run's claims with their evidence ids",
    params: ['id'],
    ok: { status: 200, schema: list(ClaimView), description: 'Claims' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/activity',
    summary:
      "What the run's research steps worked on: each retrieve shard's query, each extract shard's source and evidence count, claims and contradictions per iteration",
    params: ['id'],
    ok: { status: 200, schema: RunActivityView, description: 'The activity, keyed by iteration and shard like the step events' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/sources',
    summary: "The run's source records",
    params: ['id'],
    ok: { status: 200, schema: list(SourceView), description: 'Sources' },
  },
  {
    method: 'get',
    path: '/v1/sources/{id}',
    summary: "A stored source's text, by snapshot id or content-hash prefix (report.json sources[].contentHash)",
    params: ['id'],
    paramSchema: SourceTextParams,
    ok: { status: 200, schema: SourceTextView, description: 'The snapshot text a citation excerpt is a slice of' },
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/audit',
    summary: 'The hash-chained audit log and the result of verifying it',
    params: ['id'],
    ok: { status: 200, schema: AuditView, description: 'Audit log' },
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/follow-ups',
    summary:
      "Ask a follow-up of a completed run: a new run whose corpus is the sources this run read (its snapshots, as the collection 'sources of run <id>'), with this run's other options within the tenant's policy",
    params: ['id'],
    body: FollowUpBody,
    ok: { status: 201, schema: RunView, description: 'The follow-up run' },
    errors: [409, 422],
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/shares',
    summary:
      "A read-only link to a completed run's report (members and admins): its token is in this answer only, and opens the report, its figures and its sources' text until it expires or is revoked",
    params: ['id'],
    body: CreateShareBody,
    ok: { status: 201, schema: CreatedShareView, description: 'The link, with its token and the web app path that opens it' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/runs/{id}/shares',
    summary: "The run's share links, newest first, with their state (active, expired, revoked); never their tokens",
    params: ['id'],
    ok: { status: 200, schema: list(ShareView), description: 'Share links' },
  },
  {
    method: 'post',
    path: '/v1/runs/{id}/shares/{shareId}/revoke',
    summary: 'Revoke a share link: it stops working at once (revoking it again changes nothing)',
    params: ['id', 'shareId'],
    paramSchema: ShareIdParams,
    ok: { status: 200, schema: ShareView, description: 'The revoked link' },
  },
  {
    method: 'get',
    path: '/v1/shared',
    summary:
      "With a share token (Authorization: Bearer dsh_…) instead of an API key: the shared report's question, completion time, verification figures and the link's expiry. 410 once the link is revoked or expired",
    ok: { status: 200, schema: SharedReportView, description: 'The shared report in brief' },
    errors: [410],
  },
  {
    method: 'get',
    path: '/v1/shared/report.md',
    summary: 'With a share token: the shared report as md',
    ok: { status: 200, mediaTypes: ['text/markdown'], description: 'report.md' },
    errors: [410],
  },
  {
    method: 'get',
    path: '/v1/shared/report.html',
    summary: 'With a share token: the shared report as html',
    ok: { status: 200, mediaTypes: ['text/html'], description: 'report.html' },
    errors: [410],
  },
  {
    method: 'get',
    path: '/v1/shared/report.json',
    summary: 'With a share token: the shared report as json',
    ok: { status: 200, mediaTypes: ['application/json'], description: 'report.json' },
    errors: [410],
  },
  {
    method: 'get',
    path: '/v1/shared/report.pdf',
    summary: 'With a share token: the shared report as pdf',
    ok: { status: 200, mediaTypes: ['application/pdf'], description: 'report.pdf' },
    errors: [410],
  },
  {
    method: 'get',
    path: '/v1/shared/sources/{id}',
    summary: "With a share token: the stored text of one of the shared report's sources, by snapshot id or whole content hash",
    params: ['id'],
    paramSchema: SourceTextParams,
    ok: { status: 200, schema: SourceTextView, description: 'The snapshot text a citation excerpt is a slice of' },
    errors: [410],
  },
  {
    method: 'post',
    path: '/v1/collections',
    summary: 'Create a private collection (200 if it exists)',
    body: CreateCollectionBody,
    ok: { status: 201, schema: CollectionView, description: 'The collection' },
  },
  {
    method: 'get',
    path: '/v1/collections',
    summary: "The tenant's collections",
    ok: { status: 200, schema: list(CollectionView), description: 'Collections' },
  },
  {
    method: 'get',
    path: '/v1/collections/{id}',
    summary: 'One collection',
    params: ['id'],
    ok: { status: 200, schema: CollectionView, description: 'The collection' },
  },
  {
    method: 'post',
    path: '/v1/collections/{id}/documents',
    summary: 'Upload a document (md, txt, html as text; pdf as base64) into a collection',
    params: ['id'],
    body: UploadDocumentBody,
    multipart: true,
    ok: { status: 201, schema: UploadResult, description: 'What ingestion did (200 when nothing new was stored)' },
  },
  {
    method: 'post',
    path: '/mcp',
    summary:
      'Model Context Protocol (Streamable HTTP, stateless): JSON-RPC requests from an MCP client (tools start_research, get_run, ' +
      'approve_gate, get_report, search_evidence, list_collections, add_document); Accept: application/json, text/event-stream',
    ok: {
      status: 200,
      mediaTypes: ['application/json', 'text/event-stream'],
      description: 'The JSON-RPC answer, or an SSE stream with progress',
    },
    errors: [400, 406],
  },
  { method: 'get', path: '/healthz', summary: 'Liveness', auth: false, ok: { status: 200, description: 'The process answers' } },
  {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: Postgres and Redis reachable',
    auth: false,
    ok: { status: 200, description: 'Ready (503 names what is not)' },
  },
];

export const ERROR_SCHEMA = ApiErrorBody;

/** Fastify's form of a documented path (`{id}` → `:id`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

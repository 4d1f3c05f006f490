import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  GateName,
  type ApprovalView,
  type Intervention,
  type InterventionInput,
  type CollectionView,
  type RunList,
  type RunView,
} from '@dossier/contracts';
import { walkPaths } from '@dossier/sources';
import { CliUsageError } from '../cli-error';
import { gateDecisionArgs, runIdArg } from '../commands/inspect.commands';
import { runOptionsFor, type ResearchArgs } from '../commands/research.command';
import type { Output } from '../output';
import { followEvents } from './event-stream';
import type { GatewayClient } from './gateway-client';

/** `dossier --api … ingest`: every supported file under the paths, uploaded into the collection through the gateway. */
export async function apiIngest(client: GatewayClient, out: Output, paths: string[], collection: string): Promise<number> {
  const c = await client.json<CollectionView>('POST', '/v1/collections', { name: collection });
  const walked = await walkPaths(paths);
  if (walked.missing.length) throw new CliUsageError(`No such file or folder: ${walked.missing.join(', ')}`);
  out.line(`Uploading ${walked.files.length} files to collection "${collection}" at ${client.base}…`);
  let stored = 0;
  let failed = 0;
  for (const f of walked.files) {
    const bytes = await readFile(f.absolutePath);
    const pdf = f.absolutePath.toLowerCase().endsWith('.pdf');
    try {
      const report = await client.json<{ ingested: number; updated: number }>('POST', `/v1/collections/${c.id}/documents`, {
        // The API takes a bare file name; keep the folder structure in it.
        filename: f.relativePath.replaceAll('/', '__'),
        content: pdf ? bytes.toString('base64') : bytes.toString('utf8'),
        encoding: pdf ? 'base64' : 'utf8',
      });
      stored += report.ingested + report.updated;
      out.progress(`  ${stored} stored`);
    } catch (err) {
      failed++;
      out.line(`  skipped ${f.relativePath}: ${(err as Error).message}`);
    }
  }
  for (const f of walked.failed) out.line(`  skipped ${f.path}: ${f.reason}`);
  out.line(`Uploaded ${walked.files.length - failed} files (${stored} new or changed), ${failed + walked.failed.length} failed.`);
  return failed + walked.failed.length > 0 && walked.files.length - failed === 0 ? 1 : 0;
}

/** `dossier --api … research`: starts the run on the gateway, streams its progress over SSE, downloads the report. */
export async function apiResearch(client: GatewayClient, out: Output, args: ResearchArgs): Promise<string> {
  if (args.corpus?.length) await apiIngest(client, out, args.corpus, args.collection);
  const options = runOptionsFor(args);
  const run = await client.json<RunView>('POST', '/v1/runs', { question: args.question, options });
  out.line(`Run ${run.id}: ${args.question}`);
  const started = Date.now();
  await followEvents(client, run.id, async (e) => {
    const t = `${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s`;
    const d = e.data;
    switch (e.type) {
      case 'step_completed': {
        const result = d['result'] as Record<string, unknown>;
        out.line(
          `${t}  iteration ${String(d['iteration'])}  ${String(d['node'])}  ${Object.entries(result)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', ')}`,
        );
        break;
      }
      case 'gate_opened':
        out.line(`${t}  gate ${String(d['gate'])} is open (revision ${String(d['revision'])})`);
        if (args.approve === 'prompt') await promptGate(client, out, run.id, String(d['gate']));
        break;
      case 'research_stopped':
        out.line(`${t}  research stopped after iteration ${String(d['iteration'])}: ${String(d['reason']).replaceAll('_', ' ')}`);
        break;
      case 'run_failed':
        out.line(`${t}  run failed${d['node'] ? ` at ${String(d['node'])}` : ''}: ${String(d['error'])}`);
        break;
      case 'step_retrying':
        out.line(`${t}  ${String(d['node'])} attempt ${String(d['attempt'])} failed, retrying: ${String(d['error'])}`);
        break;
      default:
        break;
    }
  });
  const final = await client.json<RunView>('GET', `/v1/runs/${run.id}`);
  if (final.status !== 'completed')
    throw new CliUsageError(`Run ${run.id} ended ${final.status}: ${final.failureReason ?? 'no reason recorded'}`);
  await mkdir(args.out, { recursive: true });
  for (const format of ['md', 'html', 'json'] as const)
    await writeFile(path.join(args.out, `report.${format}`), await client.text(`/v1/runs/${run.id}/report.${format}`));
  out.line(`Report written to ${path.join(args.out, 'report.md')}, report.html and report.json`);
  return run.id;
}

async function promptGate(client: GatewayClient, out: Output, runId: string, gate: string): Promise<void> {
  const open = (await client.json<{ items: ApprovalView[] }>('GET', `/v1/runs/${runId}/approvals`)).items.find(
    (a) => a.gate === gate && a.status === 'open',
  );
  if (!open) return;
  const subject = open.subject as {
    questions?: { priority: number; text: string }[];
    sections?: { position: number; title: string }[];
  } | null;
  if (subject?.questions) {
    out.line('Research plan:');
    for (const q of subject.questions) out.line(`  [${q.priority}] ${q.text}`);
  }
  for (const s of subject?.sections ?? []) out.line(`  ${s.position + 1}. ${s.title}`);
  if (!process.stdin.isTTY) {
    out.line(`Waiting for a decision: dossier --api ${client.base} approve ${runId} ${gate} [--reject --feedback "..."]`);
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`Approve the ${gate}? [y = approve / anything else = feedback to reject with] `)).trim();
    const body = answer === '' || /^y(es)?$/i.test(answer) ? { decision: 'approve' } : { decision: 'reject', feedback: answer };
    await client.json('POST', `/v1/approvals/${open.id}`, body);
  } finally {
    rl.close();
  }
}

export async function apiListRuns(client: GatewayClient, out: Output): Promise<void> {
  const page = await client.json<RunList>('GET', '/v1/runs?limit=100');
  if (page.items.length === 0) return out.line('No runs yet.');
  for (const r of page.items) out.line(`${r.id}  ${r.status.padEnd(17)}  ${r.createdAt.slice(0, 19)}  ${r.question}`);
}

export async function apiShowRun(client: GatewayClient, out: Output, id: string | undefined): Promise<void> {
  const runId = runIdArg(id);
  const run = await client.json<RunView>('GET', `/v1/runs/${runId}`);
  out.line(`Run ${run.id}`);
  out.line(`  question     ${run.question}`);
  out.line(
    `  status       ${run.status}${run.awaitingGate ? ` (gate ${run.awaitingGate})` : ''}${run.failureReason ? ` — ${run.failureReason}` : ''}`,
  );
  out.line(`  current node ${run.currentNode ?? '-'}; research stopped: ${run.stopReason ?? '-'}`);
  for (const a of (await client.json<{ items: ApprovalView[] }>('GET', `/v1/runs/${runId}/approvals`)).items) {
    out.line(`  gate ${a.gate} r${a.revision}: ${a.status}${a.feedback ? ` — ${a.feedback}` : ''}`);
  }
}

export async function apiApprove(
  client: GatewayClient,
  out: Output,
  id: string | undefined,
  gate: string | undefined,
  reject: boolean,
  feedback?: string,
): Promise<void> {
  const args = gateDecisionArgs(id, gate, reject, feedback);
  const open = (await client.json<{ items: ApprovalView[] }>('GET', `/v1/runs/${args.runId}/approvals`)).items.find(
    (a) => a.gate === args.gate && a.status === 'open',
  );
  if (!open) throw new CliUsageError(`Gate ${args.gate} is not open on run ${args.runId}`);
  await client.json('POST', `/v1/approvals/${open.id}`, args.decision);
  out.line(`${reject ? 'Rejected' : 'Approved'} gate ${args.gate} of run ${args.runId}.`);
}

export async function apiRunAction(client: GatewayClient, out: Output, action: 'cancel' | 'resume', id: string | undefined): Promise<void> {
  const runId = runIdArg(id);
  const run = await client.json<RunView>('POST', `/v1/runs/${runId}/${action}`, {});
  out.line(`Run ${run.id} is ${run.status}.`);
}

/** `dossier --api … intervene RUN --…`: queued by the gateway, applied by `moderate` at the next research-loop boundary. */
export async function apiIntervene(client: GatewayClient, out: Output, id: string | undefined, input: InterventionInput): Promise<void> {
  const runId = runIdArg(id);
  const queued = await client.json<Intervention>('POST', `/v1/runs/${runId}/interventions`, input);
  out.line(`Queued ${queued.input.type.replaceAll('_', ' ')} (${queued.id}) on run ${runId}: applied at the next research-loop boundary.`);
}

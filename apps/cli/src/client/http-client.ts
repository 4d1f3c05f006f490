import { readFile } from 'node:fs/promises';
import {
  type ApprovalDecision,
  type ApprovalView,
  type CollectionView,
  type GateName,
  type Intervention,
  type InterventionInput,
  type ReportFormat,
  type RunList,
  type RunOptionsInput,
  type RunView,
  type SourceTextView,
} from '@dossier/contracts';
import { GateNotOpenError } from '@dossier/errors';
import { walkPaths } from '@dossier/sources';
import type { SequencedEvent } from '@dossier/workflow';
import { CliUsageError } from '../cli-error';
import type { DossierClient, IngestSummary } from './dossier-client';
import { followEvents } from './event-stream';
import type { GatewayHttp } from './gateway-http';

/** The gateway transport: every call is a request to the `/v1` API, as the key's tenant and principal. */
export class HttpClient implements DossierClient {
  readonly transport = 'api';

  constructor(private readonly http: GatewayHttp) {}

  /** Uploads every supported file under the paths into the collection (created if missing), one request per file. */
  async ingest(paths: string[], collection: string, onProgress: (done: number, total: number) => void): Promise<IngestSummary> {
    const c = await this.http.json<CollectionView>('POST', '/v1/collections', { name: collection });
    const walked = await walkPaths(paths);
    if (walked.missing.length) throw new CliUsageError(`No such file or folder: ${walked.missing.join(', ')}`);
    const summary: IngestSummary = {
      scanned: walked.files.length + walked.failed.length,
      ingested: 0,
      updated: 0,
      unchanged: 0,
      duplicates: 0,
      failed: walked.failed.map((f) => ({ path: f.path, reason: f.reason })),
    };
    for (const [i, f] of walked.files.entries()) {
      const bytes = await readFile(f.absolutePath);
      const pdf = f.absolutePath.toLowerCase().endsWith('.pdf');
      try {
        const r = await this.http.json<Omit<IngestSummary, 'failed' | 'scanned'>>('POST', `/v1/collections/${c.id}/documents`, {
          // The API takes a bare file name; keep the folder structure in it.
          filename: f.relativePath.replaceAll('/', '__'),
          content: pdf ? bytes.toString('base64') : bytes.toString('utf8'),
          encoding: pdf ? 'base64' : 'utf8',
        });
        summary.ingested += r.ingested;
        summary.updated += r.updated;
        summary.unchanged += r.unchanged;
        summary.duplicates += r.duplicates;
      } catch (err) {
        summary.failed.push({ path: f.relativePath, reason: (err as Error).message });
      }
      onProgress(i + 1, walked.files.length);
    }
    return summary;
  }

  async collectionSize(collection: string): Promise<number> {
    const { items } = await this.http.json<{ items: CollectionView[] }>('GET', '/v1/collections');
    return items.find((c) => c.name === collection)?.documents ?? 0;
  }

  start(question: string, options: RunOptionsInput): Promise<RunView> {
    return this.http.json<RunView>('POST', '/v1/runs', { question, options });
  }

  async follow(runId: string, onEvent: (e: SequencedEvent) => Promise<void>): Promise<RunView> {
    await followEvents(this.http, runId, onEvent);
    return this.run(runId);
  }

  run(runId: string): Promise<RunView> {
    return this.http.json<RunView>('GET', `/v1/runs/${runId}`);
  }

  async runs(limit: number): Promise<RunView[]> {
    return (await this.http.json<RunList>('GET', `/v1/runs?limit=${limit}`)).items;
  }

  /** The API has no step counts yet. */
  async progress(): Promise<null> {
    return null;
  }

  async approvals(runId: string): Promise<ApprovalView[]> {
    return (await this.http.json<{ items: ApprovalView[] }>('GET', `/v1/runs/${runId}/approvals`)).items;
  }

  async decide(runId: string, gate: GateName, decision: ApprovalDecision): Promise<void> {
    const open = (await this.approvals(runId)).find((a) => a.gate === gate && a.status === 'open');
    if (!open) throw new GateNotOpenError(`Gate ${gate} is not open on run ${runId}`, { runId });
    await this.http.json('POST', `/v1/approvals/${open.id}`, decision);
  }

  intervene(runId: string, input: InterventionInput): Promise<Intervention> {
    return this.http.json<Intervention>('POST', `/v1/runs/${runId}/interventions`, input);
  }

  async interventions(runId: string): Promise<Intervention[]> {
    return (await this.http.json<{ items: Intervention[] }>('GET', `/v1/runs/${runId}/interventions`)).items;
  }

  cancel(runId: string, reason?: string): Promise<RunView> {
    return this.http.json<RunView>('POST', `/v1/runs/${runId}/cancel`, reason ? { reason } : {});
  }

  resume(runId: string): Promise<RunView> {
    return this.http.json<RunView>('POST', `/v1/runs/${runId}/resume`, {});
  }

  report(runId: string, format: ReportFormat): Promise<Buffer> {
    return this.http.bytes(`/v1/runs/${runId}/report.${format}`);
  }

  sourceText(idOrHash: string): Promise<SourceTextView> {
    return this.http.json<SourceTextView>('GET', `/v1/sources/${encodeURIComponent(idOrHash)}`);
  }

  /** Nothing to release: every request is its own. */
  /** The gateway's workers check their own model settings when the run starts. */
  async checkEngine(): Promise<void> {
    return undefined;
  }

  async close(): Promise<void> {
    return undefined;
  }
}

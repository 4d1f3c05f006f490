import { readFile } from 'node:fs/promises';
import {
  type ApprovalDecision,
  type ApprovalView,
  type CollectionView,
  type GateName,
  type ImportedRunView,
  type Intervention,
  type InterventionInput,
  type ReportFormat,
  type RunArchiveExport,
  type RunArchiveFile,
  type RunArchiveSummary,
  type RunList,
  type RunOptionsInput,
  type RunView,
  type SourceTextView,
} from '@dossier/contracts';
import { GateNotOpenError, ValidationError } from '@dossier/errors';
import type { SequencedEvent } from '@dossier/contracts';
import type { DocumentEntry, DocumentUpload, DossierClient, IngestChoices, IngestSummary } from './dossier-client';
import { followEvents } from './event-stream';
import type { GatewayHttp } from './gateway-http';

/** A local file to upload, as `walkPaths` (libs/sources) finds it. */
export interface WalkedUpload {
  absolutePath: string;
  relativePath: string;
}

/**
 * Finds the files under local paths for `ingest`. Injected: the CLI passes libs/sources' `walkPaths` (kept out of
 * this library so the gateway, whose MCP tools never read its own disk, does not load it).
 */
export type PathWalker = (
  paths: string[],
  root?: string,
  rules?: { include?: string[]; exclude?: string[] },
) => Promise<{
  files: WalkedUpload[];
  failed: { path: string; reason: string }[];
  skippedFiles?: { path: string; reason: string }[];
  missing: string[];
}>;

/** A named path does not exist (a usage error in the CLI). */
export class MissingPathError extends ValidationError {}

/** The gateway transport: every call is a request to the `/v1` API, as the key's tenant and principal. */
export class HttpClient implements DossierClient {
  readonly transport = 'api';

  constructor(
    private readonly http: GatewayHttp,
    private readonly walk?: PathWalker,
  ) {}

  /** Uploads every supported file under the paths into the collection (created if missing), one request per file. */
  async ingest(
    paths: string[],
    collection: string,
    onProgress: (done: number, total: number, path?: string) => void,
    choices: IngestChoices = {},
  ): Promise<IngestSummary> {
    if (!this.walk) throw new ValidationError('This client cannot read local files; send documents as content (add_document)');
    if (choices.kind !== undefined) throw new ValidationError('--kind is not in the API yet: ingest with the local transport to set it');
    const walked = await this.walk(paths, undefined, { include: choices.include, exclude: choices.exclude });
    if (walked.missing.length) throw new MissingPathError(`No such file or folder: ${walked.missing.join(', ')}`);
    const c = await this.ensureCollection(collection);
    const summary: IngestSummary = {
      scanned: walked.files.length + walked.failed.length + (walked.skippedFiles?.length ?? 0),
      skippedFiles: walked.skippedFiles ?? [],
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
      onProgress(i + 1, walked.files.length, f.relativePath);
    }
    return summary;
  }

  documents(): Promise<DocumentEntry[] | null> {
    return Promise.reject(new ValidationError('dossier documents is not in the API yet: use the local transport'));
  }

  removeDocuments(): Promise<string[] | null> {
    return Promise.reject(new ValidationError('dossier documents rm is not in the API yet: use the local transport'));
  }

  async collectionSize(collection: string): Promise<number> {
    return (await this.collections()).find((c) => c.name === collection)?.documents ?? 0;
  }

  async collections(): Promise<CollectionView[]> {
    return (await this.http.json<{ items: CollectionView[] }>('GET', '/v1/collections')).items;
  }

  async addDocument(collection: string, doc: DocumentUpload): Promise<IngestSummary> {
    const c = await this.ensureCollection(collection);
    const r = await this.http.json<Omit<IngestSummary, 'scanned'>>('POST', `/v1/collections/${c.id}/documents`, doc);
    return { scanned: 1, ...r };
  }

  private ensureCollection(name: string): Promise<CollectionView> {
    return this.http.json<CollectionView>('POST', '/v1/collections', { name });
  }

  start(question: string, options: RunOptionsInput): Promise<RunView> {
    return this.http.json<RunView>('POST', '/v1/runs', { question, options });
  }

  async follow(runId: string, onEvent: (e: SequencedEvent) => Promise<void>, signal?: AbortSignal): Promise<RunView> {
    await followEvents(this.http, runId, onEvent, { signal });
    return this.run(runId);
  }

  run(runId: string): Promise<RunView> {
    return this.http.json<RunView>('GET', `/v1/runs/${runId}`);
  }

  async runs(limit: number): Promise<RunView[]> {
    return (await this.http.json<RunList>('GET', `/v1/runs?limit=${limit}`)).items;
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

  replay(runId: string, from?: string): Promise<RunView> {
    return this.http.json<RunView>('POST', `/v1/runs/${runId}/replay`, from !== undefined ? { from } : {});
  }

  async exportRun(runId: string): Promise<{ archive: Buffer; summary: RunArchiveSummary }> {
    const r = await this.http.json<RunArchiveExport>('GET', `/v1/runs/${runId}/archive`);
    return { archive: Buffer.from(r.archive, 'base64'), summary: r.summary };
  }

  importRun(archive: Buffer): Promise<ImportedRunView> {
    return this.http.json<ImportedRunView>('POST', '/v1/runs/import', { archive: archive.toString('base64') } satisfies RunArchiveFile);
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

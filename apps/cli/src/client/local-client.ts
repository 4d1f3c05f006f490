import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  TERMINAL_RUN_STATUSES,
  type ApprovalDecision,
  type CollectionView,
  type GateName,
  type ImportedRunView,
  type InterventionInput,
  type ReportFormat,
  type RunArchiveSummary,
  type RunOptionsInput,
  type RunStatus,
  type RunView,
} from '@dossier/contracts';
import { RunStateError } from '@dossier/errors';
import type { SequencedEvent } from '@dossier/contracts';
import { packArchive, readArchive, RunArchives, RunCommands, RunQueries } from '@dossier/runs';
import { openContext, type CliContext } from '../cli-context';
import type { WorkerMode } from '../framework/command-spec';
import type { DocumentEntry, DocumentUpload, DossierClient, IngestChoices, IngestSummary } from '@dossier/client';
import { environment } from '@dossier/config';

const ACTOR = 'cli';
const POLL_MS = 200;

/** Ingestion and collections: loaded by the commands that use them (its HTML and PDF parsers are large; issue 28: runs, show). */
function sources(): typeof import('@dossier/sources') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, see above
  return require('@dossier/sources') as typeof import('@dossier/sources');
}

/**
 * The local transport: the engine's own use cases (RunCommands, RunQueries, ingestion) in this process, on the
 * database at DATABASE_URL, as the tenant DOSSIER_TENANT. With `workers`, this process also hosts every stage
 * service and the conductor's relay, so a run started (or resumed) here is worked here, and only here (0075).
 */
export class LocalClient implements DossierClient {
  readonly transport = 'local';

  /** The context that hosts the workers, when this process has them (opened with them, or on the first run it starts). */
  private workers?: Promise<CliContext>;

  private constructor(
    private readonly ctx: CliContext,
    private readonly mode: WorkerMode,
  ) {
    if (mode === true) this.workers = Promise.resolve(ctx);
  }

  static async open(workers: WorkerMode): Promise<LocalClient> {
    return new LocalClient(await openContext(workers === true), workers);
  }

  /**
   * `'on-demand'` (dossier mcp): the first run this process starts, resumes or replays brings up the workers and the
   * conductor's loops, in a context of their own beside the one the commands use; until then nothing is consumed.
   */
  private async ensureWorkers(): Promise<void> {
    if (this.mode === 'on-demand') await (this.workers ??= openContext(true));
  }

  private get tenantId(): string {
    return this.ctx.tenantId;
  }
  private get commands(): RunCommands {
    return this.ctx.app.get(RunCommands);
  }
  private get queries(): RunQueries {
    return this.ctx.app.get(RunQueries);
  }

  async ingest(
    paths: string[],
    collection: string,
    onProgress: (done: number, total: number, path?: string) => void,
    choices: IngestChoices = {},
  ): Promise<IngestSummary> {
    const report = await sources().ingestPaths(this.ctx.prisma, {
      tenantId: this.tenantId,
      collection,
      paths,
      include: choices.include,
      exclude: choices.exclude,
      // Checked by ingestPaths' schema (one of the authority classes); a wrong word is refused there with the list.
      kind: choices.kind as Parameters<ReturnType<typeof sources>['ingestPaths']>[1]['kind'],
      onProgress: ({ done, total, path }) => onProgress(done, total, path),
    });
    return { ...report, failed: report.failed.map((f) => ({ path: f.path, reason: f.reason })) };
  }

  async documents(collection: string): Promise<DocumentEntry[] | null> {
    const rows = await sources().listDocuments(this.ctx.prisma, this.tenantId, collection);
    return rows?.map(({ path, title, mediaType, aliases, chars }) => ({ path, title, mediaType, aliases, chars })) ?? null;
  }

  removeDocuments(collection: string, patterns: string[]): Promise<string[] | null> {
    return sources().removeDocuments(this.ctx.prisma, this.tenantId, collection, patterns);
  }

  async collectionSize(collection: string): Promise<number> {
    return (await sources().findCollection(this.ctx.prisma, this.tenantId, { name: collection }))?.documents ?? 0;
  }

  collections(): Promise<CollectionView[]> {
    return sources().listCollections(this.ctx.prisma, this.tenantId);
  }

  /** As the gateway's upload: the content staged as a file named as given, then the same ingestion as `ingest`. */
  async addDocument(collection: string, doc: DocumentUpload): Promise<IngestSummary> {
    const dir = await mkdtemp(path.join(tmpdir(), 'dossier-upload-'));
    try {
      const file = path.join(dir, path.basename(doc.filename));
      await writeFile(file, Buffer.from(doc.content, doc.encoding));
      return await this.ingest([file], collection, () => undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async start(question: string, options: RunOptionsInput): Promise<RunView> {
    await this.ensureWorkers();
    const run = await this.commands.start({ tenantId: this.tenantId, question, options, actor: ACTOR });
    return this.queries.run(this.tenantId, run.id);
  }

  async follow(runId: string, onEvent: (e: SequencedEvent) => Promise<void>, signal?: AbortSignal): Promise<RunView> {
    let seq = 0;
    for (;;) {
      const events = await this.queries.events(this.tenantId, runId, seq);
      for (const e of events) {
        seq = e.seq;
        await onEvent(e);
        if (signal?.aborted) return this.queries.run(this.tenantId, runId);
      }
      if (events.length > 0) continue;
      const run = await this.queries.run(this.tenantId, runId);
      // Ended: the events written with the final state were read above (none came after them).
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
        if ((await this.queries.events(this.tenantId, runId, seq, 1)).length === 0) return run;
        continue;
      }
      if (signal?.aborted) return run;
      await sleep(POLL_MS);
    }
  }

  run(runId: string): Promise<RunView> {
    return this.queries.run(this.tenantId, runId);
  }

  async runs(limit: number): Promise<RunView[]> {
    return (await this.queries.page(this.tenantId, { limit })).items;
  }

  approvals(runId: string) {
    return this.queries.approvals(this.tenantId, runId);
  }

  decide(runId: string, gate: GateName, decision: ApprovalDecision): Promise<void> {
    return this.commands.decideGate(this.tenantId, runId, gate, decision, ACTOR);
  }

  intervene(runId: string, input: InterventionInput) {
    return this.commands.intervene(this.tenantId, runId, input, ACTOR);
  }

  interventions(runId: string) {
    return this.commands.listInterventions(this.tenantId, runId);
  }

  async cancel(runId: string, reason?: string): Promise<RunView> {
    await this.queries.run(this.tenantId, runId);
    await this.commands.cancel(this.tenantId, runId, reason ?? 'cancelled from the command line', ACTOR);
    return this.queries.run(this.tenantId, runId);
  }

  /**
   * A failed or cancelled run is resumed; a run still marked running or waiting whose process died (a laptop closed, a
   * kill) is taken over. Either way this process hosts it from now on: its workers, relay and reconciler advance it,
   * and no other process does (docs/decisions/0075). Refused while the run's process is still alive, or when this
   * process calls another model endpoint than the run did (0076).
   */
  async resume(runId: string): Promise<RunView> {
    await this.ensureWorkers();
    const run = await this.queries.run(this.tenantId, runId);
    if (run.status === 'completed') {
      throw new RunStateError(`Run ${runId} is completed; only a failed or cancelled run can be resumed`, { runId });
    }
    if (run.status === 'failed' || run.status === 'cancelled') await this.commands.resume(this.tenantId, runId, ACTOR);
    else await this.commands.adopt(this.tenantId, runId, ACTOR);
    return this.queries.run(this.tenantId, runId);
  }

  async replay(runId: string, from?: string): Promise<RunView> {
    await this.ensureWorkers();
    await this.queries.run(this.tenantId, runId);
    const run = await this.commands.replay(this.tenantId, runId, from, ACTOR);
    return this.queries.run(this.tenantId, run.id);
  }

  async exportRun(runId: string): Promise<{ archive: Buffer; summary: RunArchiveSummary }> {
    await this.queries.run(this.tenantId, runId);
    const { archive, summary } = await this.ctx.app.get(RunArchives).export(this.tenantId, runId);
    return { archive: packArchive(archive), summary };
  }

  /** As the gateway's import, without a tenant policy to clamp to: the local tenant is the operator's own. */
  async importRun(archive: Buffer): Promise<ImportedRunView> {
    const run = await this.ctx.app.get(RunArchives).import(this.tenantId, await readArchive(archive), ACTOR);
    return { ...(await this.queries.run(this.tenantId, run.id)), clamped: [] };
  }

  report(runId: string, format: ReportFormat): Promise<Buffer> {
    return this.queries.report(this.tenantId, runId, format);
  }

  sourceText(idOrHash: string) {
    return this.queries.sourceText(this.tenantId, idOrHash);
  }

  /** This process's workers will play the run: a model engine's missing setting is named now, before anything is ingested. */
  async checkEngine(engine: 'offline' | 'openai'): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the agents are loaded with the workers (local-engine.module.ts)
    if (engine === 'openai') (require('@dossier/agents') as typeof import('@dossier/agents')).openAIConfigFromEnv(environment());
  }

  async close(): Promise<void> {
    // A worker context that failed to open has nothing to close (its error went to the command that asked for it).
    const workers = this.mode === 'on-demand' ? await this.workers?.catch(() => undefined) : undefined;
    await this.ctx.close();
    await workers?.close();
  }
}

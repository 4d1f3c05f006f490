import type {
  ImportedRunView,
  ApprovalDecision,
  ApprovalView,
  CollectionView,
  GateName,
  Intervention,
  InterventionInput,
  ReportFormat,
  RunArchiveSummary,
  RunOptionsInput,
  RunView,
  SequencedEvent,
  SourceTextView,
} from '@dossier/contracts';

/** One document sent as content (MCP `add_document`): text, or base64 for pdf; the file name picks the extractor. */
export interface DocumentUpload {
  filename: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

/** What `dossier ingest` did, whichever transport stored the files. */
export interface IngestSummary {
  scanned: number;
  ingested: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  failed: { path: string; reason: string }[];
  /** Files left out on purpose (unsupported, excluded, a twin of a page, a whole-manual bundle), each with its reason. */
  skippedFiles?: { path: string; reason: string }[];
  /** Stored documents removed because their file is now another's alias or a bundle. */
  removed?: number;
  /** The collection's kind after the ingestion (decision 0056), when the transport knows it. */
  kind?: string | null;
}

/** How `ingest` chooses files and labels the collection (decisions 0055, 0056). */
export interface IngestChoices {
  include?: string[];
  exclude?: string[];
  /** An AuthorityClass: documentation, official, academic, news, forum, blog. */
  kind?: string;
}

/** One stored document (dossier documents list). */
export interface DocumentEntry {
  path: string;
  title: string;
  mediaType: string;
  aliases: string[];
  chars: number;
}

/**
 * Everything a CLI command or an MCP tool asks of Dossier, in the API's own shapes. Two implementations:
 * `LocalClient` (apps/cli: the engine's use cases in this process, on the local database) and `HttpClient` (the
 * gateway's `/v1` API with an API key; the gateway's own `/mcp` uses it too). Commands and MCP tools are written
 * once against this interface, so they mean the same thing over every transport.
 */
export interface DossierClient {
  readonly transport: 'local' | 'api';
  ingest(
    paths: string[],
    collection: string,
    onProgress: (done: number, total: number, path?: string) => void,
    choices?: IngestChoices,
  ): Promise<IngestSummary>;
  /** The documents of a collection by path; null when there is no such collection. */
  documents(collection: string): Promise<DocumentEntry[] | null>;
  /** Removes a collection's documents whose path (or alias) matches a path or glob; the removed paths, null: no collection. */
  removeDocuments(collection: string, patterns: string[]): Promise<string[] | null>;
  /** Documents in the named collection; 0 when it does not exist. */
  collectionSize(collection: string): Promise<number>;
  collections(): Promise<CollectionView[]>;
  /** Ingests one document given as content into the collection (created if missing). */
  addDocument(collection: string, doc: DocumentUpload): Promise<IngestSummary>;
  start(question: string, options: RunOptionsInput): Promise<RunView>;
  /**
   * Calls `onEvent` for each event of the run's log, once and in order, until the run ends (or `signal` is
   * aborted: then it stops after the event being handled); returns the run as it is then.
   */
  follow(runId: string, onEvent: (e: SequencedEvent) => Promise<void>, signal?: AbortSignal): Promise<RunView>;
  run(runId: string): Promise<RunView>;
  runs(limit: number): Promise<RunView[]>;
  approvals(runId: string): Promise<ApprovalView[]>;
  decide(runId: string, gate: GateName, decision: ApprovalDecision): Promise<void>;
  intervene(runId: string, input: InterventionInput): Promise<Intervention>;
  interventions(runId: string): Promise<Intervention[]>;
  cancel(runId: string, reason?: string): Promise<RunView>;
  /** Continues a failed or cancelled run (locally also a run whose process died while it was running). */
  resume(runId: string): Promise<RunView>;
  /**
   * A new run replaying a finished one from its recording (decision 0030); with `from`, steps from the first of that
   * node on call live. Follow it like any run.
   */
  replay(runId: string, from?: string): Promise<RunView>;
  /** A finished run with its recording as an archive file (gzip JSON), and the recording's size. */
  exportRun(runId: string): Promise<{ archive: Buffer; summary: RunArchiveSummary }>;
  /** An archive file as a new, finished run of this tenant, with the options the tenant's policy changed. */
  importRun(archive: Buffer): Promise<ImportedRunView>;
  /** A report file's bytes (UTF-8 for md, html and json). */
  report(runId: string, format: ReportFormat): Promise<Buffer>;
  sourceText(idOrHash: string): Promise<SourceTextView>;
  /** Fails, naming the setting, when the engine cannot run where the run will be worked. */
  checkEngine(engine: 'offline' | 'openai'): Promise<void>;
  close(): Promise<void>;
}

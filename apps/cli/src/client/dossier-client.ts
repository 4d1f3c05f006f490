import type {
  ApprovalDecision,
  ApprovalView,
  GateName,
  Intervention,
  InterventionInput,
  ReportFormat,
  RunOptionsInput,
  RunView,
  SourceTextView,
} from '@dossier/contracts';
import type { RunProgress, SequencedEvent } from '@dossier/workflow';

/** What `dossier ingest` did, whichever transport stored the files. */
export interface IngestSummary {
  scanned: number;
  ingested: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  failed: { path: string; reason: string }[];
}

/**
 * Everything a CLI command asks of Dossier, in the API's own shapes. Two implementations: `LocalClient` (the
 * engine's use cases in this process, on the local database) and `HttpClient` (the gateway's `/v1` API with an
 * API key). Commands are written once against this interface, so the same flags mean the same thing in both.
 */
export interface DossierClient {
  readonly transport: 'local' | 'api';
  ingest(paths: string[], collection: string, onProgress: (done: number, total: number) => void): Promise<IngestSummary>;
  /** Documents in the named collection; 0 when it does not exist. */
  collectionSize(collection: string): Promise<number>;
  start(question: string, options: RunOptionsInput): Promise<RunView>;
  /** Calls `onEvent` for each event of the run's log, once and in order, until the run ends; returns the final run. */
  follow(runId: string, onEvent: (e: SequencedEvent) => Promise<void>): Promise<RunView>;
  run(runId: string): Promise<RunView>;
  runs(limit: number): Promise<RunView[]>;
  /** Step and research counts, where the transport can give them. */
  progress(runId: string): Promise<RunProgress | null>;
  approvals(runId: string): Promise<ApprovalView[]>;
  decide(runId: string, gate: GateName, decision: ApprovalDecision): Promise<void>;
  intervene(runId: string, input: InterventionInput): Promise<Intervention>;
  interventions(runId: string): Promise<Intervention[]>;
  cancel(runId: string, reason?: string): Promise<RunView>;
  /** Continues a failed or cancelled run (locally also a run whose process died while it was running). */
  resume(runId: string): Promise<RunView>;
  /** A report file's bytes (UTF-8 for md, html and json). */
  report(runId: string, format: ReportFormat): Promise<Buffer>;
  sourceText(idOrHash: string): Promise<SourceTextView>;
  /** Fails, naming the setting, when the engine cannot run where the run will be worked. */
  checkEngine(engine: 'offline' | 'openai'): Promise<void>;
  close(): Promise<void>;
}

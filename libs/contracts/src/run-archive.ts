import { z } from 'zod';
import { ReportFormat } from './entities/research';
import { RunView } from './api/runs-api';
import { RunOptions } from './run-options';
import { RunStatus } from './run-status';
import { safeText } from './safe-text';

/** What a recorded external call asked (decision 0030). */
export const RecordedKind = z.enum(['model', 'embedding', 'search', 'page', 'document', 'robots']);
export type RecordedKind = z.infer<typeof RecordedKind>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** Limits of one archive: far above a real run (the demo's recording is ~40 calls), low enough to refuse a flood. */
export const RUN_ARCHIVE_LIMITS = { calls: 20_000, answers: 20_000, reports: 8 } as const;

/**
 * A run with its recording, as `dossier export` writes it and `dossier import` reads it (gzip of this JSON). It holds
 * the question, options, status, report files and every external answer the run consumed, each under the SHA-256 of
 * its canonical JSON (checked on import). No tenant, principal, API key or provider key: requests are kept only as
 * hashes and options never hold secrets.
 */
export const RunArchive = z.strictObject({
  format: z.literal('dossier-run-archive'),
  version: z.literal(1),
  exportedAt: z.iso.datetime(),
  run: z.strictObject({
    id: z.uuid(),
    question: z.string().min(1).max(4000),
    options: RunOptions,
    workflowVersion: z.int().min(1),
    status: RunStatus,
    stopReason: z.string().max(2000).nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  }),
  recording: z.strictObject({
    calls: z
      .array(
        z.strictObject({
          step: z.string().min(1).max(200),
          kind: RecordedKind,
          requestHash: Sha256,
          call: z.string().max(500),
          answerHash: Sha256,
        }),
      )
      .max(RUN_ARCHIVE_LIMITS.calls),
    answers: z.array(z.strictObject({ hash: Sha256, kind: RecordedKind, body: z.json() })).max(RUN_ARCHIVE_LIMITS.answers),
  }),
  reports: z.array(z.strictObject({ format: ReportFormat, content: z.string() })).max(RUN_ARCHIVE_LIMITS.reports),
});
export type RunArchive = z.infer<typeof RunArchive>;

/** What `dossier export` reports beside the archive: its size and the recording's. */
export const RunArchiveSummary = z.strictObject({
  runId: z.uuid(),
  calls: z.int().min(0),
  answers: z.int().min(0),
  recordingBytes: z.int().min(0),
});
export type RunArchiveSummary = z.infer<typeof RunArchiveSummary>;

/** `POST /v1/runs/{id}/replay`: replay the whole run, or only from the first step of `from` on. */
export const ReplayRunBody = z.strictObject({
  // Which node is checked against the run's graph by the replay itself (an unknown one is a 400 naming it).
  from: safeText()
    .regex(/^[a-z_]{1,40}$/, 'a node name such as draft')
    .optional(),
});
export type ReplayRunBody = z.infer<typeof ReplayRunBody>;

/** An archive file (gzip) as base64 in JSON: `GET /v1/runs/{id}/archive` answers it, `POST /v1/runs/import` takes it. */
export const RunArchiveFile = z.strictObject({
  archive: z.base64().max(64 * 1024 * 1024),
});
export type RunArchiveFile = z.infer<typeof RunArchiveFile>;

/** An option of an imported run that the importing tenant's policy changed: which, what the archive said, what it is now. */
export const ClampedOption = z.strictObject({ option: z.string(), from: z.json(), to: z.json() });
export type ClampedOption = z.infer<typeof ClampedOption>;

/**
 * `POST /v1/runs/import`: the new run, and what of the archive's options this tenant's policy changed (engine,
 * providers, budgets, counts, gates; empty when nothing). An imported run is always finished: `completed`, or
 * `failed` when the archive's run was anything else.
 */
export const ImportedRunView = RunView.extend({ clamped: z.array(ClampedOption) });
export type ImportedRunView = z.infer<typeof ImportedRunView>;

export const RunArchiveExport = RunArchiveFile.extend({ summary: RunArchiveSummary });
export type RunArchiveExport = z.infer<typeof RunArchiveExport>;

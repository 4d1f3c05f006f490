import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import {
  BINARY_REPORT_FORMATS,
  ReportFormat,
  ReportJson,
  RunArchive,
  RunOptions,
  TenantPolicy,
  TERMINAL_RUN_STATUSES,
  type ClampedOption,
  type RunArchiveSummary,
  type RunStatus,
} from '@dossier/contracts';
import {
  DEFAULT_RETENTION_DAYS,
  PrismaService,
  RecordingRepository,
  ReportArtifactRepository,
  RunRepository,
  TenantRepository,
  type Prisma,
  type RunRow,
} from '@dossier/db';
import { RunNotFoundError, RunStateError } from '@dossier/errors';
import { renderAll } from '@dossier/render';
import { AuditLog } from '@dossier/workflow';
import type { ArchiveContents, ArchivedAnswer } from './archive-reading/unpack-archive';

/**
 * The archive's report files as the imported run `runId` stores them: rendered again from the archive's report.json
 * with the run's own id and the original's named as its source (issue 28: the header showed the original's id), in
 * the formats the archive carried. An archive without a report.json that reads as a report keeps its files as they came.
 */
export async function importedReports(
  files: readonly { format: ReportFormat; content: string }[],
  runId: string,
  from: string,
): Promise<{ format: ReportFormat; content: string }[]> {
  const json = files.find((f) => f.format === 'json');
  let parsed: ReturnType<typeof ReportJson.safeParse> | undefined;
  try {
    parsed = json ? ReportJson.safeParse(JSON.parse(json.content)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return [...files];
  let rendered: Awaited<ReturnType<typeof renderAll>>;
  try {
    rendered = await renderAll({ ...parsed.data, runId, importedFrom: from });
  } catch {
    // A report.json the renderer refuses (a hand-made archive): its files are kept as they came, as before.
    return [...files];
  }
  return files.map(({ format }) => ({
    format,
    content: BINARY_REPORT_FORMATS.includes(format) ? Buffer.from(rendered[format]).toString('base64') : rendered[format].toString(),
  }));
}

/** The archive file's bytes. */
export function packArchive(archive: RunArchive): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(archive)));
}

/** Recorded answers written per statement on import: each its own short write, never one transaction for a whole file. */
const ANSWER_BATCH_BYTES = 4 * 1024 * 1024;

function* batches(answers: readonly ArchivedAnswer[]): Generator<ArchivedAnswer[]> {
  let batch: ArchivedAnswer[] = [];
  let bytes = 0;
  for (const answer of answers) {
    if (batch.length > 0 && bytes + answer.bytes > ANSWER_BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(answer);
    bytes += answer.bytes;
  }
  if (batch.length > 0) yield batch;
}

/** Moves a finished run and its recording between installations (decision 0030): `dossier export` / `dossier import`. */
@Injectable()
export class RunArchives {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly recordings: RecordingRepository,
    private readonly reports: ReportArtifactRepository,
    private readonly tenants: TenantRepository,
    private readonly audit: AuditLog,
  ) {}

  /** The tenant's finished run as an archive: question, options, status, report files and the whole recording. */
  async export(tenantId: string, runId: string): Promise<{ archive: RunArchive; summary: RunArchiveSummary }> {
    const run = await this.runs.find(tenantId, runId);
    if (!run) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
    if (!TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
      throw new RunStateError(`Run ${runId} is ${run.status}; only a finished run can be exported (its recording is still growing)`, {
        runId,
      });
    }
    const recording = await this.recordings.ofRun(this.prisma, tenantId, runId);
    const reports = [];
    for (const format of ReportFormat.options) {
      const content = await this.reports.stored(tenantId, runId, format);
      if (content !== null) reports.push({ format, content });
    }
    const archive = RunArchive.parse({
      format: 'dossier-run-archive',
      version: 1,
      exportedAt: new Date().toISOString(),
      run: {
        id: run.id,
        question: run.question,
        options: RunOptions.parse(run.options),
        workflowVersion: run.workflowVersion,
        status: run.status,
        stopReason: run.stopReason,
        createdAt: run.createdAt.toISOString(),
        completedAt: run.completedAt?.toISOString() ?? null,
      },
      recording,
      reports,
    });
    const size = await this.recordings.size(this.prisma, tenantId, runId);
    return { archive, summary: { runId, calls: size.calls, answers: size.answers, recordingBytes: size.bytes } };
  }

  /**
   * The archive as a new run of the tenant (a new id; the archive's id is kept in the audit log), with its report
   * files and recording, ready for `dossier report` and `dossier replay`. The archive was read and checked by
   * `readArchive` (bounds, contract, every answer against its hash). An imported run is always finished: `completed`
   * as it was, anything else `failed` (nothing here could move it: its steps are not in this installation). `clamped`
   * is what the importing tenant's policy changed of the options (the gateway's), kept in the audit row.
   *
   * Written in bounded pieces (issue 30): the answers first, a few MB per statement (content-addressed and shared, so
   * a retry or a concurrent import of the same file writes nothing twice), then the run, its audit row, reports and
   * calls in one short transaction — which stores again any answer the hourly purge took in between, since until the
   * calls exist nothing names them.
   */
  async import(tenantId: string, archive: ArchiveContents, actor: string, clamped: readonly ClampedOption[] = []): Promise<RunRow> {
    const policy = TenantPolicy.safeParse((await this.tenants.find(tenantId))?.policy ?? {});
    const days = (policy.success ? policy.data.recordings?.retentionDays : undefined) ?? DEFAULT_RETENTION_DAYS;
    const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
    const { run: source } = archive;
    const { answers, calls } = archive.recording;
    for (const batch of batches(answers)) await this.recordings.insertAnswerTexts(this.prisma, tenantId, batch);
    const completed = source.status === 'completed';
    // Rendered before the transaction (a PDF takes a while), under the id the run is then created with.
    const id = randomUUID();
    const reports = await importedReports(archive.reports, id, source.id);
    return this.prisma.$transaction(async (tx) => {
      const run = await this.runs.create(tx, {
        id,
        tenantId,
        question: source.question,
        status: completed ? 'completed' : 'failed',
        options: source.options as Prisma.InputJsonValue,
        workflowVersion: source.workflowVersion,
        stopReason: source.stopReason,
        completedAt: source.completedAt ? new Date(source.completedAt) : new Date(),
        failureReason: completed ? null : `imported from an archive of a run that was ${source.status}; replay it to run it again`,
      });
      await this.runs.lock(tx, tenantId, run.id);
      await this.audit.appendLocked(tx, tenantId, run.id, 'run_imported', actor, {
        from: source.id,
        exportedAt: archive.exportedAt,
        status: source.status,
        calls: calls.length,
        clamped,
      });
      for (const report of reports) await this.reports.insertStored(tx, tenantId, run.id, report);
      await this.recordings.insert(tx, tenantId, run.id, { calls, answers: [] }, expiresAt);
      const stored = await this.recordings.heldAnswers(
        tx,
        tenantId,
        answers.map((a) => a.hash),
      );
      const purged = answers.filter((a) => !stored.has(a.hash));
      for (const batch of batches(purged)) await this.recordings.insertAnswerTexts(tx, tenantId, batch);
      return run;
    });
  }
}

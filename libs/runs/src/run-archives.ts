import { gunzipSync, gzipSync } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import {
  ReportFormat,
  RunArchive,
  RunOptions,
  TenantPolicy,
  TERMINAL_RUN_STATUSES,
  type RunArchiveSummary,
  type RunStatus,
} from '@dossier/contracts';
import {
  canonicalJson,
  DEFAULT_RETENTION_DAYS,
  PrismaService,
  RecordingRepository,
  ReportArtifactRepository,
  RunRepository,
  sha256,
  TenantRepository,
  type Prisma,
  type RunRow,
} from '@dossier/db';
import { RunArchiveError, RunNotFoundError, RunStateError } from '@dossier/errors';
import { AuditLog } from '@dossier/workflow';

/** An archive file: gzip of the archive's JSON, at most this large unpacked (a real run's is a few MB). */
export const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

/** The archive file's bytes. */
export function packArchive(archive: RunArchive): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(archive)));
}

/** The archive in a file's bytes, or RunArchiveError saying what is wrong with them. */
export function unpackArchive(bytes: Buffer): RunArchive {
  let text: string;
  try {
    text = gunzipSync(bytes, { maxOutputLength: MAX_ARCHIVE_BYTES }).toString('utf8');
  } catch (err) {
    throw new RunArchiveError(`Not a Dossier run archive: not gzip data, or larger than ${MAX_ARCHIVE_BYTES} bytes unpacked`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RunArchiveError('Not a Dossier run archive: the unpacked data is not JSON', { cause: err });
  }
  const parsed = RunArchive.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new RunArchiveError(`Not a valid Dossier run archive: ${issues.join('; ')}`);
  }
  return parsed.data;
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
      const row = await this.prisma.reportArtifact.findFirst({ where: { tenantId, runId, format }, select: { content: true } });
      if (row) reports.push({ format, content: row.content });
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
   * The archive as a new run of the tenant (a new id; the archive's id is kept in the audit log): finished as it was,
   * with its report files and recording, ready for `dossier report` and `dossier replay`. Every answer is checked
   * against its hash and every call must name an answer of the archive, so a corrupt or altered archive is refused.
   */
  async import(tenantId: string, archive: RunArchive, actor: string): Promise<RunRow> {
    const held = new Set<string>();
    for (const answer of archive.recording.answers) {
      if (sha256(canonicalJson(answer.body)) !== answer.hash) {
        throw new RunArchiveError(`Corrupt run archive: the ${answer.kind} answer ${answer.hash.slice(0, 12)} does not match its hash`);
      }
      held.add(answer.hash);
    }
    const orphan = archive.recording.calls.find((c) => !held.has(c.answerHash));
    if (orphan) throw new RunArchiveError(`Corrupt run archive: the call ${orphan.call} names an answer the archive does not hold`);
    const policy = TenantPolicy.safeParse((await this.tenants.find(tenantId))?.policy ?? {});
    const days = (policy.success ? policy.data.recordings?.retentionDays : undefined) ?? DEFAULT_RETENTION_DAYS;
    const { run: source } = archive;
    return this.prisma.$transaction(async (tx) => {
      const run = await this.runs.create(tx, {
        tenantId,
        question: source.question,
        status: source.status,
        options: source.options as Prisma.InputJsonValue,
        workflowVersion: source.workflowVersion,
        stopReason: source.stopReason,
        completedAt: source.completedAt ? new Date(source.completedAt) : null,
      });
      await this.runs.lock(tx, tenantId, run.id);
      await this.audit.appendLocked(tx, tenantId, run.id, 'run_imported', actor, {
        from: source.id,
        exportedAt: archive.exportedAt,
        calls: archive.recording.calls.length,
      });
      for (const report of archive.reports) await tx.reportArtifact.create({ data: { tenantId, runId: run.id, ...report } });
      await this.recordings.insert(tx, tenantId, run.id, archive.recording, new Date(Date.now() + days * 24 * 3_600_000));
      return run;
    });
  }
}

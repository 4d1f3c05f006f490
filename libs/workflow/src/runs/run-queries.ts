import { Injectable } from '@nestjs/common';
import {
  RunEventData,
  type ApprovalView,
  type GateName,
  type ReportFormat,
  type RunList,
  type RunStatus,
  type RunView,
  type SourceTextView,
} from '@dossier/contracts';
import {
  ApprovalRepository,
  PrismaService,
  publishPreview,
  ReportArtifactRepository,
  ResearchRepository,
  RunEventRepository,
  RunRepository,
  type ApprovalRow,
} from '@dossier/db';
import { RunNotFoundError, RunStateError, ValidationError } from '@dossier/errors';
import { GateEdits } from './gate-edits';
import { RunTotals } from './run-totals';
import { approvalView, decodeRunCursor, encodeRunCursor } from './run-views';

/** Counts that say how far a run got (`dossier show`). */
export interface RunProgress {
  steps: Record<string, number>;
  evidence: number;
  claims: number;
  contradictions: number;
}

/** One event of a run's durable log, with its sequence number (the SSE event id). */
export interface SequencedEvent {
  seq: number;
  data: RunEventData;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The read side of runs, scoped to one tenant in every query: what the gateway's endpoints and the CLI's local
 * transport show. A run of another tenant is indistinguishable from a missing one (RunNotFoundError).
 */
@Injectable()
export class RunQueries {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly approvalRows: ApprovalRepository,
    private readonly research: ResearchRepository,
    private readonly eventRows: RunEventRepository,
    private readonly gateEdits: GateEdits,
    private readonly totals: RunTotals,
    private readonly artifacts: ReportArtifactRepository,
  ) {}

  async run(tenantId: string, runId: string): Promise<RunView> {
    const row = await this.runs.find(tenantId, runId);
    if (!row) throw new RunNotFoundError(`Run ${runId} not found`, { details: { runId } });
    return this.totals.one(row);
  }

  /** Newest first, after an opaque cursor (the `nextCursor` of the previous page). */
  async page(tenantId: string, q: { status?: RunStatus; q?: string; limit: number; cursor?: string }): Promise<RunList> {
    const rows = await this.runs.page(tenantId, {
      limit: q.limit + 1,
      ...(q.status ? { status: q.status } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(q.cursor ? { after: decodeRunCursor(q.cursor) } : {}),
    });
    const page = rows.slice(0, q.limit);
    return { items: await this.totals.page(tenantId, page), nextCursor: rows.length > q.limit ? encodeRunCursor(page.at(-1)!) : null };
  }

  async approvals(tenantId: string, runId: string): Promise<ApprovalView[]> {
    await this.run(tenantId, runId);
    const rows = await this.approvalRows.list(tenantId, runId);
    return Promise.all(rows.map(async (r) => approvalView(r, r.status === 'open' ? await this.subjectOf(r) : null)));
  }

  /** One approval by its id, or null (another tenant's is null too). */
  async approval(tenantId: string, approvalId: string): Promise<ApprovalView | null> {
    const row = await this.prisma.approvalDecision.findFirst({ where: { id: approvalId, tenantId } });
    return row ? approvalView(row, row.status === 'open' ? await this.subjectOf(row) : null) : null;
  }

  /** The open approval of one gate of a run, or null. */
  async openApproval(tenantId: string, runId: string, gate: GateName): Promise<ApprovalView | null> {
    return (await this.approvals(tenantId, runId)).find((a) => a.gate === gate && a.status === 'open') ?? null;
  }

  /**
   * A rendered report file's bytes (UTF-8 for the text formats); a run that has not rendered yet is a state
   * conflict (HTTP 409), not a missing run.
   */
  async report(tenantId: string, runId: string, format: ReportFormat): Promise<Buffer> {
    const run = await this.run(tenantId, runId);
    const file = await this.artifacts.read(tenantId, runId, format);
    if (!file) {
      throw new RunStateError(`Run ${runId} has no report.${format} (status ${run.status})`, { runId, details: { status: run.status } });
    }
    return file;
  }

  async progress(tenantId: string, runId: string): Promise<RunProgress> {
    await this.run(tenantId, runId);
    const where = { tenantId, runId };
    const [steps, evidence, claims, contradictions] = await Promise.all([
      this.prisma.nodeExecution.groupBy({ by: ['status'], where, _count: true }),
      this.prisma.evidenceFragment.count({ where }),
      this.prisma.claim.count({ where }),
      this.prisma.contradiction.count({ where }),
    ]);
    return { steps: Object.fromEntries(steps.map((s) => [s.status, s._count])), evidence, claims, contradictions };
  }

  /** A source snapshot's text by id or by (at least 8 characters of) its content hash, as report.json lists them. */
  async sourceText(tenantId: string, idOrHash: string): Promise<SourceTextView> {
    const id = idOrHash.trim();
    if (id.length < 8 || !/^[0-9a-f-]+$/i.test(id)) {
      throw new ValidationError(
        'Give a source snapshot id, or at least 8 hex characters of its content hash (report.json sources[].contentHash)',
      );
    }
    const where = UUID.test(id) ? { id } : { contentHash: { startsWith: id.toLowerCase() } };
    const found = await this.prisma.sourceSnapshot.findMany({ where: { tenantId, ...where }, take: 2 });
    if (found.length === 0) throw new RunNotFoundError(`No source ${id}`, { details: { source: id } });
    if (found.length > 1) throw new ValidationError(`"${id}" matches more than one source: give more of the hash`);
    const s = found[0]!;
    return { id: s.id, title: s.title, url: s.url, text: s.text };
  }

  /** Events after `afterSeq`, in order. */
  async events(tenantId: string, runId: string, afterSeq: number, limit = 1000): Promise<SequencedEvent[]> {
    const rows = await this.eventRows.list(tenantId, runId, afterSeq, limit);
    return rows.map((r) => ({ seq: r.seq, data: RunEventData.parse(r.data) }));
  }

  /**
   * The open gate's subject in the same contract the gateway shows and an edited approval sends back (GateEdits):
   * the plan, the outline, or the report in brief with its verification figures.
   */
  private async subjectOf(approval: ApprovalRow): Promise<ApprovalView['subject']> {
    const gate = approval.gate as GateName;
    switch (gate) {
      case 'plan':
        return this.gateEdits.planSubject(approval.tenantId, approval.runId, approval.revision);
      case 'outline':
        return this.gateEdits.outlineSubject(approval.tenantId, approval.runId);
      case 'publish':
        // The finished report in brief, with what verification checked, repaired and removed.
        return publishPreview(this.prisma, this.research, approval.tenantId, approval.runId);
    }
  }
}

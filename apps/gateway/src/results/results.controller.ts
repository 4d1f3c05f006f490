import { Controller, Get, Headers, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { REPORT_MEDIA_TYPES, ReportParams, RunIdParams, type ClaimView, type ReportFormat, type SourceView } from '@dossier/contracts';
import { AuditRepository, ResearchRepository } from '@dossier/db';
import { redactDeep } from '@dossier/errors';
import { RunQueries } from '@dossier/runs';
import { AuditLog } from '@dossier/workflow';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { RunLookup } from '../runs/run-lookup';
import { negotiateReportFormat } from './report-format';

/** What a run produced: the report (md, html, json, pdf), its claims, its sources and its verified audit log. */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class ResultsController {
  constructor(
    private readonly lookup: RunLookup,
    private readonly queries: RunQueries,
    private readonly research: ResearchRepository,
    private readonly auditRows: AuditRepository,
    private readonly audit: AuditLog,
  ) {}

  @Get(':id/report')
  async report(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.send(caller, id, negotiateReportFormat(accept), reply);
  }

  @Get(':id/report.:format')
  async reportFile(@CurrentCaller() caller: Caller, @Param() params: unknown, @Res() reply: FastifyReply): Promise<void> {
    const { id, format } = parse(ReportParams, params, 'path');
    await this.send(caller, id, format, reply);
  }

  @Get(':id/claims')
  async claims(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: ClaimView[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    const rows = await this.research.claims(caller.tenantId, id);
    return {
      items: rows.map((c) => ({
        id: c.id,
        iteration: c.iteration,
        statement: c.statement,
        subject: c.subject,
        status: c.status,
        evidenceIds: c.evidenceIds,
      })),
    };
  }

  @Get(':id/sources')
  async sources(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: SourceView[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    const rows = await this.research.sourceRecords(caller.tenantId, id);
    return {
      items: rows.map((s) => ({
        id: s.id,
        iteration: s.iteration,
        url: s.url,
        canonicalUrl: s.canonicalUrl,
        title: s.title,
        snippet: s.snippet,
        origin: s.origin,
        rank: s.rank,
        authority: s.authority,
        selected: s.selected,
        snapshotId: s.snapshotId,
      })),
    };
  }

  /** The hash-chained audit log with the result of verifying the chain now. */
  @Get(':id/audit')
  async auditLog(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ events: unknown[]; verification: unknown }> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    const [rows, verification] = await Promise.all([this.auditRows.list(caller.tenantId, id), this.audit.verify(caller.tenantId, id)]);
    return {
      events: rows.map((r) => ({
        seq: r.seq,
        kind: r.kind,
        actor: r.actor,
        // A failure's reason is redacted on the way out too (rows from before secrets were redacted at the source).
        payload: r.kind === 'run_failed' ? redactDeep(safeJson(r.payload)) : safeJson(r.payload),
        createdAt: r.createdAt,
        prevHash: r.prevHash,
        hash: r.hash,
      })),
      verification,
    };
  }

  private async send(caller: Caller, runId: string, format: ReportFormat, reply: FastifyReply): Promise<void> {
    // The same use case as the CLI's `dossier report`: a run that has not rendered yet is a 409 run_state_conflict.
    const content = await this.queries.report(caller.tenantId, runId, format);
    void reply
      .status(200)
      .header('content-type', REPORT_MEDIA_TYPES[format])
      .header('content-disposition', `inline; filename="report-${runId}.${format}"`)
      .header('vary', 'Accept')
      // report.html carries its CSP as a meta tag too (for a saved copy); served, the gateway's header (GATEWAY_CSP,
      // set on every response by applySecurityHeaders) is what counts.
      .send(content);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

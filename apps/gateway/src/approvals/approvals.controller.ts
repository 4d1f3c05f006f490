import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { ApprovalDecision, ApprovalStatus, GateName, RunIdParams, type ApprovalView } from '@dossier/contracts';
import { ApprovalRepository, PrismaService, type ApprovalRow } from '@dossier/db';
import { GateNotOpenError } from '@dossier/errors';
import { RunCommands } from '@dossier/workflow';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { NotFoundError } from '../common/http-errors';
import { parse } from '../common/parse';
import { RunLookup } from '../runs/run-lookup';
import { ApprovalSubject } from './approval-subject';

export const ApprovalIdParams = z.strictObject({ id: z.uuid() });

@Controller('v1')
@UseGuards(ApiKeyGuard)
export class ApprovalsController {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly prisma: PrismaService,
    private readonly lookup: RunLookup,
    private readonly commands: RunCommands,
    private readonly subject: ApprovalSubject,
  ) {}

  @Get('runs/:id/approvals')
  async list(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: ApprovalView[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    const rows = await this.approvals.list(caller.tenantId, id);
    return { items: await Promise.all(rows.map((r) => this.view(r))) };
  }

  /** Approve or reject (with feedback) one gate revision; only while it is open (else 409). */
  @Post('approvals/:id')
  @HttpCode(200)
  async decide(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<ApprovalView> {
    const { id } = parse(ApprovalIdParams, params, 'path');
    const decision = parse(ApprovalDecision, rawBody, 'body');
    const approval = await this.find(caller.tenantId, id);
    if (approval.status !== 'open') {
      throw new GateNotOpenError(`Approval ${id} (gate ${approval.gate}, revision ${approval.revision}) is already ${approval.status}`, {
        runId: approval.runId,
        details: { status: approval.status },
      });
    }
    await this.commands.decideGate(caller.tenantId, approval.runId, GateName.parse(approval.gate), decision, caller.actor);
    return this.view(await this.find(caller.tenantId, id));
  }

  private async find(tenantId: string, id: string): Promise<ApprovalRow> {
    const row = await this.prisma.approvalDecision.findFirst({ where: { id, tenantId } });
    if (!row) throw new NotFoundError(`Approval ${id} not found`, { details: { approvalId: id } });
    return row;
  }

  private async view(r: ApprovalRow): Promise<ApprovalView> {
    return {
      id: r.id,
      runId: r.runId,
      gate: GateName.parse(r.gate),
      revision: r.revision,
      status: ApprovalStatus.parse(r.status),
      feedback: r.feedback,
      decidedBy: r.decidedBy,
      openedAt: r.openedAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      subject: r.status === 'open' ? await this.subject.of(r) : null,
    };
  }
}
